// Arbitrary bytes as a libscap .scap file (plain or gzip): a lying section
// header, block lengths and trailers that disagree, process and fd list
// entries that run past their block, events whose parameter lengths walk
// off the event, nparams that cannot be, old blocks whose parameter count
// must be guessed. The reader must stop at the damage and say where, and
// every record it hands out must parse and decode as a record.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/capture_file/capture_reader.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/record_view.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The reader tells a .scap file by its first bytes: make every input one.
  static constexpr uint8_t kSectionHeader[4] = {0x0a, 0x0d, 0x0d, 0x0a};
  const int fd = memfd_create("kestrel-fuzz-scap", MFD_CLOEXEC);
  if (fd < 0) return 0;
  const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  if (!gzip && write(fd, kSectionHeader, sizeof(kSectionHeader)) != sizeof(kSectionHeader)) {
    close(fd);
    return 0;
  }
  size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  auto reader = kestrel::engine::capture_file::CaptureReader::Open(path);
  if (reader.ok()) {
    bool snapshot = false;
    while (const kestrel_record_header* h = (*reader)->Next(&snapshot)) {
      auto view = kestrel::engine::RecordView::Parse(h, h->len, (*reader)->schema());
      if (!view.ok()) __builtin_trap();  // the reader made a record that is none
      if (!snapshot && h->type != KESTREL_EVT_GENERIC_SYSCALL &&
          !kestrel::engine::DecodedEvent::Decode(*view, (*reader)->schema()).ok()) {
        __builtin_trap();
      }
    }
    (void)(*reader)->damage();
    (void)(*reader)->ScapSummary();
  }
  close(fd);
  return 0;
}
