// The committed capture fixtures (test/fixtures/capture/*.kcap) replayed
// as `kestrel run` replays them, for the rules tests that compare two ways
// of evaluating the same records.
#ifndef KESTREL_TEST_UNIT_RULES_FIXTURE_REPLAY_H_
#define KESTREL_TEST_UNIT_RULES_FIXTURE_REPLAY_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/capture_file/capture_reader.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/decode/syscall_names.h"
#include "engine/fields/event_context.h"
#include "engine/fields/field_extractor.h"
#include "engine/state/thread_table.h"
#include "shared/event_types.h"

namespace kestrel::engine::rules {

inline constexpr char kFixtureDir[] = KESTREL_SOURCE_DIR "/test/fixtures/capture";

inline std::vector<std::string> Fixtures() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtureDir)) {
    if (entry.path().extension() == ".kcap") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Replays `file` as `kestrel run` does (state first, but a close's fields
// before the table forgets its descriptor) and calls `visit` on every
// syscall event with its syscall number, the extractor set on it.
template <typename Visit>
void Replay(const std::string& file, fields::FieldExtractor& extractor, Visit visit) {
  auto reader = capture_file::CaptureReader::Open(file);
  ASSERT_TRUE(reader.ok()) << reader.status();
  const SchemaTable& schema = (*reader)->schema();
  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable threads(options);
  uint64_t num = 0;
  while (const kestrel_record_header* h = (*reader)->Next()) {
    ++num;
    absl::StatusOr<RecordView> view = RecordView::Parse(h, h->len, schema);
    if (!view.ok()) continue;
    if (h->type == KESTREL_EVT_GENERIC_SYSCALL) {
      absl::StatusOr<GenericSyscall> sc = DecodeGenericSyscall(*view);
      if (!sc.ok()) continue;
      threads.ApplyGeneric(*h, *sc);
      extractor.SetEvent(fields::MakeGenericContext(*h, *sc, threads, num, 0));
      visit(num, sc->id);
      continue;
    }
    if (h->type <= KESTREL_EVT_SYSCALL_BASE || h->type >= KESTREL_EVT_TYPE_MAX) {
      threads.Apply(*view);
      continue;
    }
    absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(*view, schema);
    if (!event.ok()) continue;
    const std::optional<uint32_t> nr = SyscallId(event->info().syscall);
    if (!nr) {
      threads.ApplyEvent(*event);
      continue;
    }
    const bool close = event->info().syscall == "close";
    if (!close) threads.ApplyEvent(*event);
    extractor.SetEvent(fields::MakeEventContext(*event, threads, num, 0));
    visit(num, *nr);
    if (close) threads.ApplyEvent(*event);
  }
}

}  // namespace kestrel::engine::rules

#endif  // KESTREL_TEST_UNIT_RULES_FIXTURE_REPLAY_H_
