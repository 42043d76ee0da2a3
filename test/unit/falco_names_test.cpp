// Kestrel names its parameters as Falco does, so that `evt.arg.NAME` in a
// Falco rule finds the same value: every Falco parameter of an event both
// have must be a Kestrel parameter of that event (Kestrel may have more).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "engine/decode/event_schema.h"
#include "engine/decode/falco_event_table.h"
#include "engine/decode/syscall_names.h"

namespace kestrel::engine {
namespace {

// The Falco parameters `kestrel_event` lacks, by name.
std::string MissingFalcoParams(const EventInfo& kestrel_event, const FalcoEvent& falco) {
  std::string missing;
  for (std::string_view name : falco.params) {
    if (kestrel_event.ParamIndex(name) >= 0) continue;
    if (!missing.empty()) missing.append(", ");
    missing.append(name);
  }
  return missing;
}

// The Falco event `e` corresponds to, or nullptr for a Kestrel extra.
const FalcoEvent* FalcoEventOf(const EventInfo& e) {
  if (e.syscall.empty()) return e.name == "PROCESS_EXIT" ? &FalcoProcessExit() : nullptr;
  return FindFalcoEvent(e.syscall);
}

// One test per Kestrel event that Falco also has, so a failure names the
// event; Kestrel's extras (truncate ...) have nothing to match.
class FalcoNamesTest : public ::testing::TestWithParam<const EventInfo*> {};

TEST_P(FalcoNamesTest, EveryFalcoParamIsAKestrelParam) {
  const EventInfo& e = *GetParam();
  const FalcoEvent& falco = *FalcoEventOf(e);
  EXPECT_EQ(MissingFalcoParams(e, falco), "")
      << e.name << " lacks (or renamed) these parameters of Falco's " << falco.event;
  // The return value keeps Falco's name ("fd" for the calls that create one).
  if (e.return_index >= 0 && !falco.params.empty()) {
    const std::string_view ret = e.params[e.return_index].name;
    EXPECT_NE(std::find(falco.params.begin(), falco.params.end(), ret), falco.params.end())
        << e.name << "'s return value is `" << ret << "`, a name Falco's " << falco.event
        << " does not have";
  }
}

std::vector<const EventInfo*> EventsFalcoAlsoHas() {
  std::vector<const EventInfo*> events;
  for (const auto* list : {&AllEvents(), &OtherEvents()}) {
    for (const EventInfo& e : *list) {
      if (FalcoEventOf(e) != nullptr) events.push_back(&e);
    }
  }
  return events;
}

INSTANTIATE_TEST_SUITE_P(Schema, FalcoNamesTest, ::testing::ValuesIn(EventsFalcoAlsoHas()),
                         [](const ::testing::TestParamInfo<const EventInfo*>& info) {
                           return std::string(info.param->name);
                         });

// The table itself: Falco's 154 syscalls, each a known x86_64 name, once.
TEST(FalcoEventTableTest, HoldsFalcosSpecificSyscallEvents) {
  const std::vector<FalcoEvent>& events = FalcoSyscallEvents();
  EXPECT_EQ(events.size(), 154u);
  std::set<std::string_view> seen;
  for (const FalcoEvent& f : events) {
    EXPECT_TRUE(SyscallId(f.syscall).has_value()) << f.syscall << " is not an x86_64 syscall";
    EXPECT_TRUE(seen.insert(f.syscall).second) << f.syscall << " twice";
    EXPECT_TRUE(f.event.starts_with("PPME_") && f.event.ends_with("_X")) << f.event;
    EXPECT_EQ(FindFalcoEvent(f.syscall), &f) << f.syscall;
  }
  EXPECT_TRUE(std::is_sorted(
      events.begin(), events.end(),
      [](const FalcoEvent& a, const FalcoEvent& b) { return a.syscall < b.syscall; }));
}

TEST(FalcoEventTableTest, LooksUpBySyscallName) {
  const FalcoEvent* openat = FindFalcoEvent("openat");
  ASSERT_NE(openat, nullptr);
  EXPECT_EQ(openat->event, "PPME_SYSCALL_OPENAT_2_X");
  EXPECT_EQ(openat->params,
            (std::vector<std::string_view>{"fd", "dirfd", "name", "flags", "mode", "dev", "ino"}));
  const FalcoEvent* symlinkat = FindFalcoEvent("symlinkat");
  ASSERT_NE(symlinkat, nullptr);
  EXPECT_EQ(symlinkat->params,
            (std::vector<std::string_view>{"res", "target", "linkdirfd", "linkpath"}));
  EXPECT_EQ(FindFalcoEvent("truncate"), nullptr);  // generic in Falco
  EXPECT_EQ(FindFalcoEvent("no_such_call"), nullptr);
  EXPECT_EQ(FalcoProcessExit().params.back(), "reaper_tid");
}

}  // namespace
}  // namespace kestrel::engine
