// shared/filler_programs.h decides which tail-call slots a shared filler
// program takes: an event in two programs would have its slot taken by
// whichever libpman registered last.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "shared/event_types.h"
#include "shared/filler_programs.h"

namespace {

struct SharedFillerEvent {
  std::string program;
  int type;
};

#define KESTREL_TEST_EVENT(name) SharedFillerEvent{program, KESTREL_EVT_##name},
#define KESTREL_TEST_FILLER(name, events)                  \
  {                                                        \
    const std::string program = #name;                     \
    rows.insert(rows.end(), {events(KESTREL_TEST_EVENT)}); \
  }

std::vector<SharedFillerEvent> Rows() {
  std::vector<SharedFillerEvent> rows;
  KESTREL_SHARED_FILLERS(KESTREL_TEST_FILLER)
  return rows;
}

#undef KESTREL_TEST_FILLER
#undef KESTREL_TEST_EVENT

TEST(FillerProgramsTest, NoEventIsServedByTwoPrograms) {
  std::set<int> types;
  for (const SharedFillerEvent& row : Rows()) {
    EXPECT_TRUE(types.insert(row.type).second)
        << "event type " << row.type << " is listed again under " << row.program;
  }
}

#define KESTREL_TEST_EVENT_NAME(name, syscall, params) #name,
constexpr const char* kEventNames[] = {KESTREL_SYSCALL_EVENTS(KESTREL_TEST_EVENT_NAME)};
#undef KESTREL_TEST_EVENT_NAME

TEST(FillerProgramsTest, ProgramNamesAreNoEventNames) {
  for (const SharedFillerEvent& row : Rows()) {
    for (const char* event : kEventNames) EXPECT_NE(row.program, event);
  }
}

}  // namespace
