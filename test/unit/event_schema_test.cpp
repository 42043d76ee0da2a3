#include "engine/decode/event_schema.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/decode/syscall_names.h"

namespace kestrel::engine {
namespace {

// The probe's table-driven filler stops at the first custom parameter, so a
// table-driven parameter after a custom one would never be written.
TEST(EventSchemaTest, CustomParametersComeLast) {
  for (const EventInfo& e : AllEvents()) {
    bool seen_custom = false;
    for (const ParamInfo& p : e.params) {
      if (p.source == KPS_CUSTOM) seen_custom = true;
      EXPECT_FALSE(seen_custom && p.source != KPS_CUSTOM)
          << e.name << "." << p.name << " follows a custom parameter";
    }
  }
}

TEST(EventSchemaTest, EveryEventIsWellFormed) {
  std::set<std::string> syscalls;
  for (const EventInfo& e : AllEvents()) {
    EXPECT_TRUE(SyscallId(e.syscall).has_value()) << e.name << ": unknown syscall " << e.syscall;
    EXPECT_TRUE(syscalls.insert(std::string(e.syscall)).second) << e.syscall << " mapped twice";
    EXPECT_LE(e.params.size(), static_cast<size_t>(KESTREL_MAX_EVENT_PARAMS)) << e.name;
    ASSERT_FALSE(e.params.empty()) << e.name;
    // The return value comes first, named as Falco names it ("res" for
    // most, "uid" for getuid ...).
    EXPECT_EQ(e.params[0].source, KPS_RET) << e.name << ": the return value comes first";
    std::set<std::string> names;
    for (const ParamInfo& p : e.params) {
      EXPECT_TRUE(names.insert(std::string(p.name)).second) << e.name << "." << p.name;
      EXPECT_NE(p.type, KPT_NONE) << e.name << "." << p.name;
      // Types whose size the table filler cannot know must be custom.
      if (p.type == KPT_BYTEBUF || p.type == KPT_SOCKADDR || p.type == KPT_SOCKTUPLE ||
          p.type == KPT_CHARBUF_ARRAY || p.type == KPT_FDLIST) {
        EXPECT_EQ(p.source, KPS_CUSTOM) << e.name << "." << p.name;
      }
    }
    EXPECT_EQ(FindEvent(e.type), &e);
  }
}

// Events of no syscall sit below the syscall events, in 2..63, and are
// written whole by their own program.
TEST(EventSchemaTest, OtherEventsAreWellFormed) {
  for (const EventInfo& e : OtherEvents()) {
    EXPECT_GE(e.type, 2) << e.name;
    EXPECT_LT(e.type, KESTREL_EVT_SYSCALL_BASE) << e.name;
    EXPECT_TRUE(e.syscall.empty()) << e.name;
    EXPECT_LE(e.params.size(), static_cast<size_t>(KESTREL_MAX_EVENT_PARAMS)) << e.name;
    for (const ParamInfo& p : e.params) EXPECT_EQ(p.source, KPS_CUSTOM) << e.name << "." << p.name;
    EXPECT_EQ(FindEvent(e.type), &e);
  }
  EXPECT_EQ(FindEvent(KESTREL_EVT_PROCESS_EXIT)->name, "PROCESS_EXIT");
}

TEST(EventSchemaTest, UnknownTypesHaveNoEntry) {
  EXPECT_EQ(FindEvent(KESTREL_EVT_GENERIC_SYSCALL), nullptr);
  EXPECT_EQ(FindEvent(KESTREL_EVT_TYPE_MAX), nullptr);
  EXPECT_EQ(FindEvent(0), nullptr);
}

}  // namespace
}  // namespace kestrel::engine
