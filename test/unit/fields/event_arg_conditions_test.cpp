// evt.arg[N] numbers parameters in Falco's order (engine/decode/
// falco_event_table.h); evt.arg.NAME compiles when any event has NAME and
// has no value on events without it.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <string>

#include "condition_test.h"
#include "engine/decode/event_schema.h"
#include "engine/decode/falco_event_table.h"
#include "engine/fields/param_text.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ReturnName;
using testing::Str;

using EventArgConditionsTest = testing::ConditionTest;

// Every event Falco also has: evt.arg[N] is the parameter Falco names at N
// (or none, when Kestrel does not record it); other events keep the
// schema's order.
TEST(EventArgPositionTest, FalcoOrderForEveryEventInBoth) {
  int in_both = 0;
  for (const EventInfo& e : AllEvents()) {
    const FalcoEvent* falco = e.type == KESTREL_EVT_PROCESS_EXIT ? &FalcoProcessExit()
                              : e.syscall.empty()                ? nullptr
                                                                 : FindFalcoEvent(e.syscall);
    if (falco == nullptr) {
      for (uint32_t n = 0; n < e.params.size(); ++n) EXPECT_EQ(ParamAtPosition(e, n), int(n));
      EXPECT_EQ(ParamAtPosition(e, static_cast<uint32_t>(e.params.size())), -1) << e.name;
      continue;
    }
    ++in_both;
    for (uint32_t n = 0; n < falco->params.size(); ++n) {
      const int i = ParamAtPosition(e, n);
      if (i < 0) {
        EXPECT_EQ(e.ParamIndex(falco->params[n]), -1) << e.name << "[" << n << "]";
        continue;
      }
      EXPECT_EQ(e.params[i].name, falco->params[n]) << e.name << "[" << n << "]";
    }
    EXPECT_EQ(ParamAtPosition(e, static_cast<uint32_t>(falco->params.size())), -1) << e.name;
  }
  EXPECT_GT(in_both, 100);
}

TEST_F(EventArgConditionsTest, PositionsFollowFalcosOrder) {
  // Kestrel records openat2's `size` fourth; Falco has no size, and its
  // fourth parameter is `flags`.
  const EventInfo* info = FindEvent(KESTREL_EVT_OPENAT2);
  ASSERT_NE(info, nullptr);
  ASSERT_EQ(info->params[3].name, "size");
  sys_.SetEvent(CatRecord(KESTREL_EVT_OPENAT2,
                          {{ReturnName(KESTREL_EVT_OPENAT2), 3},
                           {"dirfd", AT_FDCWD},
                           {"size", 24},
                           {"flags", O_RDONLY | O_CLOEXEC},
                           {"mode", 0},
                           {"resolve", 0}},
                          {{"name", Str("passwd")}}));
  EXPECT_TRUE(Eval("evt.arg[0] = 3"));
  EXPECT_TRUE(Eval("evt.arg[1] = AT_FDCWD"));
  // `passwd` relative to cat's working directory, /etc.
  EXPECT_TRUE(Eval("evt.arg[2] = /etc/passwd"));
  EXPECT_TRUE(Eval("evt.rawarg.name = passwd"));
  EXPECT_TRUE(Eval("evt.arg[3] contains O_CLOEXEC"));
  EXPECT_FALSE(Eval("evt.arg[3] = 24"));
  EXPECT_FALSE(Eval("evt.arg[8] exists"));
}

// Falco's evt.arg of a relative path is the path it names: against the
// working directory, "." and ".." folded; evt.args shows both.
TEST_F(EventArgConditionsTest, RelativePathsResolveAgainstTheWorkingDirectory) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_MKDIR, {{"res", 0}, {"mode", 0755}},
                          {{"path", Str("../tmp/./new/../x")}}));
  EXPECT_TRUE(Eval("evt.arg.path = /tmp/x"));
  EXPECT_TRUE(Eval("evt.rawarg.path = ../tmp/./new/../x"));
  EXPECT_FALSE(Eval("fd.num exists"));
  EXPECT_TRUE(Eval("evt.args contains \"path=../tmp/./new/../x(/tmp/x)\""));
  sys_.SetEvent(
      CatRecord(KESTREL_EVT_MKDIR, {{"res", 0}, {"mode", 0755}}, {{"path", Str("/abs/path")}}));
  EXPECT_TRUE(Eval("evt.arg.path = /abs/path"));
  EXPECT_TRUE(Eval("evt.args contains \"path=/abs/path \""));
}

// ... and against the folder of the directory fd it is relative to, which
// is also the event's fd.
TEST_F(EventArgConditionsTest, RelativePathsResolveAgainstTheirDirectoryFd) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_UNLINKAT, {{"res", 0}, {"dirfd", 3}, {"flags", 0}},
                          {{"name", Str("x")}}));
  EXPECT_TRUE(Eval("evt.arg.name = /etc/passwd/x"));
  EXPECT_TRUE(Eval("fd.num = 3 and fd.name = /etc/passwd"));
  EXPECT_TRUE(Eval("fs.path.name = /etc/passwd/x and fs.path.nameraw = x"));
  // An fd the table does not know leaves the path as given.
  sys_.SetEvent(CatRecord(KESTREL_EVT_UNLINKAT, {{"res", 0}, {"dirfd", 42}, {"flags", 0}},
                          {{"name", Str("x")}}));
  EXPECT_TRUE(Eval("evt.arg.name = x"));
  sys_.SetEvent(CatRecord(KESTREL_EVT_UNLINKAT, {{"res", 0}, {"dirfd", AT_FDCWD}, {"flags", 0}},
                          {{"name", Str("x")}}));
  EXPECT_TRUE(Eval("evt.arg.name = /etc/x"));
  EXPECT_FALSE(Eval("fd.num exists"));
}

// A symlink's target is kept as the caller wrote it; its linkpath resolves.
TEST_F(EventArgConditionsTest, SymlinkTargetIsNotResolved) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_SYMLINK, {{"res", 0}},
                          {{"target", Str("passwd")}, {"linkpath", Str("link")}}));
  EXPECT_TRUE(Eval("evt.arg.target = passwd"));
  EXPECT_TRUE(Eval("evt.arg.linkpath = /etc/link"));
}

// Falco shows a uid or gid argument by its name; the raw value stays.
TEST_F(EventArgConditionsTest, UidsAndGidsPrintAsNames) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_SETUID, {{"res", 0}, {"uid", 1000}}, {}));
  EXPECT_TRUE(Eval("evt.arg.uid = alice"));
  EXPECT_TRUE(Eval("evt.rawarg.uid = 1000"));
  EXPECT_TRUE(Eval("evt.args = \"res=0 uid=alice\""));
  sys_.SetEvent(CatRecord(KESTREL_EVT_SETUID, {{"res", 0}, {"uid", 4242}}, {}));
  EXPECT_TRUE(Eval("evt.arg.uid = 4242"));
}

TEST_F(EventArgConditionsTest, NamesSomeEventsLackCompileAndHaveNoValue) {
  OpenEtcPasswd();
  EXPECT_TRUE(Eval("evt.arg.flags contains O_RDONLY"));
  EXPECT_TRUE(Eval("evt.arg.flags exists"));
  // Only rename-like and link events have these; openat does not.
  EXPECT_FALSE(Eval("evt.arg.newpath exists"));
  EXPECT_FALSE(Eval("evt.arg.newpath = /tmp/x"));
  EXPECT_FALSE(Eval("evt.arg.newpath != /tmp/x"));
  EXPECT_FALSE(Eval("evt.rawarg.newpath exists"));
  sys_.SetEvent(CatRecord(KESTREL_EVT_CLOSE, {{ReturnName(KESTREL_EVT_CLOSE), 0}, {"fd", 3}}));
  EXPECT_FALSE(Eval("evt.arg.flags exists"));
  EXPECT_FALSE(Eval("evt.arg.flags contains O_RDONLY"));
  EXPECT_TRUE(Eval("evt.arg.fd = 3"));
  // A rule's condition across event types: each side reads its own events.
  EXPECT_TRUE(Eval("(evt.type = openat and evt.arg.flags contains O_RDONLY) or evt.arg.fd = 3"));
  const std::string error = CompileError("evt.arg.no_event_has_this = 1");
  EXPECT_NE(error.find("no event has a parameter 'no_event_has_this'"), std::string::npos) << error;
}

}  // namespace
}  // namespace kestrel::engine::fields
