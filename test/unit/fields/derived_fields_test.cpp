// The fields user space derives from its own state (issue 38, deliverable
// 3): proc.loginshellid and proc.aenv from the lineage, fd.proto from the
// descriptor, evt.is_wait from Falco's event table, evt.reltime from the
// capture's first event. Cases written from libsinsp's documented meaning
// of each field.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "condition_test.h"
#include "engine/decode/falco_event_table.h"
#include "record_test_builder.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ReturnName;

class DerivedFieldsTest : public testing::ConditionTest {
 protected:
  absl::StatusOr<filter::FieldSpec> Resolve(std::string_view text) {
    filter::FieldRef ref;
    const size_t bracket = text.find('[');
    ref.name = std::string(text.substr(0, bracket));
    if (bracket != std::string_view::npos) {
      ref.index = std::string(text.substr(bracket + 1, text.size() - bracket - 2));
    }
    return sys_.registry().Resolve(ref);
  }

  std::string Text(std::string_view field) {
    absl::StatusOr<filter::FieldSpec> spec = Resolve(field);
    EXPECT_TRUE(spec.ok()) << field << ": " << spec.status();
    std::string out;
    return spec.ok() && sys_.extractor().ReadText(*spec, out) ? out : "<none>";
  }

  // A read by cat of descriptor `fd`, stamped `ts_ns` after boot.
  void CatReads(int64_t fd, uint64_t ts_ns = 1'000'000'000) {
    sys_.SetEvent(testing::EventRecord(
        KESTREL_EVT_READ, {.tid = testing::kCatPid, .tgid = testing::kCatPid, .ts_ns = ts_ns},
        {{ReturnName(KESTREL_EVT_READ), 1}, {"fd", fd}}));
  }

  // Replaces the entry of `pid` with `change` applied to it.
  template <typename F>
  void Change(uint32_t pid, F change) {
    ThreadInfo t = *sys_.threads().Find(pid);
    change(t);
    sys_.threads().Insert(t);
  }
};

TEST_F(DerivedFieldsTest, LoginShellIdIsTheEldestShellOfTheLineage) {
  // systemd > sshd > bash > cat: bash is the only shell.
  CatReads(3);
  EXPECT_EQ(Text("proc.loginshellid"), "200");
  // A shell under the login shell (bash > zsh > cat) does not start a
  // session of its own: the eldest one still names it.
  sys_.AddThread(250, 200, "zsh", "zsh", "/usr/bin/zsh", {}, "/");
  Change(testing::kCatPid, [](ThreadInfo& t) { t.ppid = 250; });
  CatReads(3);
  EXPECT_EQ(Text("proc.loginshellid"), "200");
  Change(200, [](ThreadInfo& t) { t.comm = "login"; });
  CatReads(3);
  EXPECT_EQ(Text("proc.loginshellid"), "250");
  EXPECT_TRUE(Eval("proc.loginshellid = 250"));
}

TEST_F(DerivedFieldsTest, LoginShellIdCountsTheProcessItselfByItsMainThread) {
  // A shell that is the process itself (its main thread's name).
  Change(testing::kCatPid, [](ThreadInfo& t) {
    t.comm = "dash";
    t.ppid = 1;
  });
  CatReads(3);
  EXPECT_EQ(Text("proc.loginshellid"), "300");
  // A thread is judged by its process's main thread, not its own name.
  Change(testing::kCatPid, [](ThreadInfo& t) { t.comm = "cat"; });
  ThreadInfo worker = *sys_.threads().Find(testing::kCatPid);
  worker.tid = 301;
  worker.comm = "ksh";
  sys_.threads().Insert(worker);
  sys_.SetEvent(testing::EventRecord(KESTREL_EVT_READ,
                                     {.tid = 301, .tgid = testing::kCatPid, .ts_ns = 1'000'000'000},
                                     {{ReturnName(KESTREL_EVT_READ), 1}, {"fd", 3}}));
  EXPECT_EQ(Text("proc.loginshellid"), "<none>") << "no shell: cat > systemd";
  EXPECT_FALSE(Eval("proc.loginshellid exists"));
}

TEST_F(DerivedFieldsTest, FdProtoMatchesEitherEndsPortAsFdPort) {
  CatReads(4);  // 10.0.0.5:40000 -> 127.0.0.1:8080
  EXPECT_TRUE(Eval("fd.proto = 8080"));
  EXPECT_TRUE(Eval("fd.proto = 40000"));
  EXPECT_TRUE(Eval("fd.proto in (22, 8080)"));
  EXPECT_FALSE(Eval("fd.proto = 22"));
  EXPECT_FALSE(Eval("fd.proto != 8080")) << "!= holds only when neither end equals";
  EXPECT_TRUE(Eval("fd.proto != 22"));
  CatReads(3);  // a file: no port
  EXPECT_FALSE(Eval("fd.proto exists"));
  EXPECT_EQ(Resolve("fd.proto")->multiplicity, filter::Multiplicity::kEitherEnd);
  EXPECT_EQ(Resolve("fd.proto")->type, filter::ValueType::kUint);
  // The per-end protocols are there too.
  CatReads(4);
  EXPECT_EQ(Text("fd.lproto"), "40000");
  EXPECT_EQ(Text("fd.rproto"), "8080");
  EXPECT_EQ(Text("fd.cproto"), "40000");
  EXPECT_EQ(Text("fd.sproto"), "8080");
}

class AncestorEnvTest : public DerivedFieldsTest {
 protected:
  void SetUp() override {
    // cat (HOME=/home/alice LANG=C) < bash < sshd < systemd (none).
    Change(200, [](ThreadInfo& t) {
      t.env = {"HOME=/home/alice", "SHELL=/bin/bash", "TERM=  xterm  ", "EMPTY="};
    });
    Change(100, [](ThreadInfo& t) { t.env = {"LANG=en_US.UTF-8", "SSH_AUTH=1", "EMPTY=x"}; });
    CatReads(3);
  }
};

TEST_F(AncestorEnvTest, ByDepth) {
  EXPECT_EQ(Text("proc.aenv[0]"), "HOME=/home/alice LANG=C") << "the process's own";
  EXPECT_EQ(Text("proc.aenv[0]"), Text("proc.env"));
  EXPECT_EQ(Text("proc.aenv[1]"), "HOME=/home/alice SHELL=/bin/bash TERM=  xterm   EMPTY=");
  EXPECT_EQ(Text("proc.aenv[2]"), "LANG=en_US.UTF-8 SSH_AUTH=1 EMPTY=x");
  EXPECT_EQ(Text("proc.aenv[3]"), "") << "systemd is known, with no environment";
  EXPECT_EQ(Text("proc.aenv[4]"), "<none>") << "no such ancestor";
  EXPECT_TRUE(Eval("proc.aenv[2] contains SSH_AUTH"));
  EXPECT_FALSE(Eval("proc.aenv[1] contains SSH_AUTH"));
}

TEST_F(AncestorEnvTest, ByVariableTheNearestAncestorWithAValue) {
  // cat's own LANG=C is not an ancestor's: sshd's is the nearest.
  EXPECT_EQ(Text("proc.aenv[LANG]"), "en_US.UTF-8");
  EXPECT_EQ(Text("proc.aenv[TERM]"), "xterm") << "trimmed of spaces";
  // bash sets EMPTY to nothing: the search goes on up to sshd.
  EXPECT_EQ(Text("proc.aenv[EMPTY]"), "x");
  EXPECT_EQ(Text("proc.aenv[HOME]"), "/home/alice");
  EXPECT_EQ(Text("proc.aenv[NOPE]"), "<none>");
  EXPECT_TRUE(Eval("proc.aenv[SHELL] = /bin/bash"));
  EXPECT_FALSE(Eval("proc.aenv[NOPE] exists"));
}

TEST_F(AncestorEnvTest, WithoutArgumentAnyAncestor) {
  EXPECT_TRUE(Eval("proc.aenv contains \"SSH_AUTH=1\""));
  EXPECT_TRUE(Eval("proc.aenv contains \"SHELL=\""));
  EXPECT_FALSE(Eval("proc.aenv contains \"LANG=C\"")) << "the process's own is not an ancestor's";
  EXPECT_EQ(Resolve("proc.aenv")->multiplicity, filter::Multiplicity::kAnyValue);
  EXPECT_EQ(Resolve("proc.aenv[1]")->multiplicity, filter::Multiplicity::kOne);
  EXPECT_EQ(Resolve("proc.aenv[HOME]")->multiplicity, filter::Multiplicity::kOne);
  EXPECT_EQ(Resolve("proc.aenv")->type, filter::ValueType::kString);
}

TEST_F(AncestorEnvTest, ArgumentsOutOfRange) {
  EXPECT_FALSE(Resolve("proc.aenv[65]").ok());
  EXPECT_TRUE(Resolve("proc.aenv[64]").ok());
  EXPECT_FALSE(Resolve("proc.aenv[]").ok());
  // A depth and a variable do not share a slot.
  EXPECT_NE(Resolve("proc.aenv[1]")->id, Resolve("proc.aenv[A1]")->id);
}

TEST_F(DerivedFieldsTest, IsWaitFollowsFalcosEventTable) {
  std::set<std::string_view> waits;
  for (const FalcoEvent& e : FalcoSyscallEvents()) {
    if (e.waits) waits.insert(e.syscall);
  }
  EXPECT_EQ(waits,
            (std::set<std::string_view>{"epoll_wait", "nanosleep", "poll", "ppoll", "select"}));
  CatReads(3);
  EXPECT_EQ(Text("evt.is_wait"), "false");
  sys_.SetEvent(CatRecord(KESTREL_EVT_POLL, {{ReturnName(KESTREL_EVT_POLL), 0}, {"timeout", 10}},
                          {{"fds", testing::ParamBytes{0, 0}}}));
  EXPECT_EQ(Text("evt.is_wait"), "true");
  EXPECT_TRUE(Eval("evt.is_wait = true"));
}

TEST_F(DerivedFieldsTest, RelTimeCountsFromTheFirstEvent) {
  CatReads(3, 1'000'000'000);
  EXPECT_EQ(Text("evt.reltime"), "<none>") << "no first event yet";
  sys_.extractor().SetFirstEventTime(400'000'000);
  CatReads(3, 1'000'000'000);
  EXPECT_EQ(Text("evt.reltime"), "600000000");
  EXPECT_EQ(Text("evt.reltime.s"), "0");
  EXPECT_EQ(Text("evt.reltime.ns"), "600000000");
  CatReads(3, 3'650'000'007);
  EXPECT_EQ(Text("evt.reltime"), "3250000007");
  EXPECT_EQ(Text("evt.reltime.s"), "3");
  EXPECT_EQ(Text("evt.reltime.ns"), "250000007");
  EXPECT_TRUE(Eval("evt.reltime.s >= 3"));
  CatReads(3, 400'000'000);
  EXPECT_EQ(Text("evt.reltime"), "0") << "the first event itself";
  CatReads(3, 300'000'000);
  EXPECT_EQ(Text("evt.reltime"), "<none>") << "stamped before the first: no wrapped value";
}

TEST_F(DerivedFieldsTest, CgroupsOfEachControllerAsLibsinspNamesThem) {
  CatReads(3);
  EXPECT_EQ(Text("thread.cgroups"), "<none>") << "none known";
  EXPECT_EQ(Text("thread.cgroup.memory"), "<none>");
  // The probe's names: the kernel's io is libsinsp's blkio.
  Change(testing::kCatPid, [](ThreadInfo& t) {
    t.cgroups = {"cpuset=/", "cpu=/user.slice", "io=/user.slice/blk", "memory=/user.slice/mem"};
  });
  CatReads(3);
  EXPECT_EQ(Text("thread.cgroups"),
            "cpuset=/ cpu=/user.slice blkio=/user.slice/blk memory=/user.slice/mem");
  EXPECT_EQ(Text("thread.cgroup.cpuset"), "/");
  EXPECT_EQ(Text("thread.cgroup.memory"), "/user.slice/mem");
  EXPECT_EQ(Text("thread.cgroup.blkio"), "/user.slice/blk");
  EXPECT_EQ(Text("thread.cgroup.io"), "<none>") << "named blkio, as libsinsp names it";
  EXPECT_EQ(Text("thread.cgroup.pids"), "<none>") << "not a controller the probe records";
  EXPECT_TRUE(Eval("thread.cgroup.memory startswith /user.slice"));
  EXPECT_TRUE(Eval("thread.cgroups contains \"blkio=/user.slice/blk\""));
}

TEST_F(DerivedFieldsTest, CgroupNeedsAControllersName) {
  EXPECT_FALSE(Resolve("thread.cgroup").ok());
  EXPECT_FALSE(Resolve("thread.cgroup.").ok());
  EXPECT_FALSE(Resolve("thread.cgroup.cpu-set").ok());
  EXPECT_FALSE(Resolve("thread.cgroup.memory[1]").ok());
  EXPECT_TRUE(Resolve("thread.cgroup.perf_event").ok());
  EXPECT_NE(Resolve("thread.cgroup.cpu")->id, Resolve("thread.cgroup.cpuset")->id);
  EXPECT_EQ(Resolve("thread.cgroups")->type, filter::ValueType::kString);
}

}  // namespace
}  // namespace kestrel::engine::fields
