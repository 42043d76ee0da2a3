// What the field tests share: resolving the fields they read, and applying a
// drained stream to a thread table while handing on the events they look at.
#ifndef KESTREL_TEST_INTEGRATION_APPLIED_EVENTS_H_
#define KESTREL_TEST_INTEGRATION_APPLIED_EVENTS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/decode/event_decoder.h"
#include "engine/decode/record_view.h"
#include "engine/fields/field_registry.h"
#include "engine/state/thread_table.h"

namespace kestrel::testing {

// The spec of each of `fields` ("name" or "name[index]"); one that does not
// resolve fails the test and gets a default spec.
inline std::vector<engine::filter::FieldSpec> ResolveFields(
    const engine::fields::FieldRegistry& registry, const std::vector<std::string>& fields) {
  std::vector<engine::filter::FieldSpec> specs;
  for (const std::string& f : fields) {
    engine::filter::FieldRef ref;
    const size_t bracket = f.find('[');
    ref.name = f.substr(0, bracket);
    if (bracket != std::string::npos) ref.index = f.substr(bracket + 1, f.size() - bracket - 2);
    absl::StatusOr<engine::filter::FieldSpec> spec = registry.Resolve(ref);
    EXPECT_TRUE(spec.ok()) << f << ": " << spec.status();
    specs.push_back(spec.value_or(engine::filter::FieldSpec{}));
  }
  return specs;
}

// Applies each of `records` to `threads`, in order. Each that `wanted` keeps
// (asked after it is applied) and that decodes goes to `visit` with its
// 1-based number in the stream and its bytes; one that does not decode
// fails the test.
inline void ForEachAppliedEvent(std::vector<std::vector<uint8_t>> records,
                                engine::ThreadTable& threads,
                                const std::function<bool(const kestrel_record_header&)>& wanted,
                                const std::function<void(const engine::DecodedEvent&, uint64_t num,
                                                         std::vector<uint8_t>& bytes)>& visit) {
  uint64_t num = 0;
  for (std::vector<uint8_t>& bytes : records) {
    ++num;
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(bytes.data(), bytes.size());
    if (!view.ok()) continue;
    threads.Apply(*view);
    if (!wanted(view->header())) continue;
    absl::StatusOr<engine::DecodedEvent> event = engine::DecodedEvent::Decode(*view);
    EXPECT_TRUE(event.ok()) << event.status();
    if (event.ok()) visit(*event, num, bytes);
  }
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_APPLIED_EVENTS_H_
