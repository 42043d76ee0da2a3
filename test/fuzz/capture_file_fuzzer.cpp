// Arbitrary bytes as a capture file: a damaged header, lying block lengths
// and counts, zstd frames that decode to more or less than they claim, bad
// checksums, records whose lengths walk off their block. The reader must
// stop at the damage and say where, never read outside the file.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/capture_file/capture_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A memfd, so the reader maps a real file of exactly these bytes.
  const int fd = memfd_create("kestrel-fuzz-capture", MFD_CLOEXEC);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  auto reader = kestrel::engine::capture_file::CaptureReader::Open(path);
  if (reader.ok()) {
    uint64_t bytes = 0;
    while (const kestrel_record_header* h = (*reader)->Next()) bytes += h->len;
    (void)(*reader)->damage();
    (void)bytes;
  }
  close(fd);
  return 0;
}
