// ThreadTable on synthetic records: each record kind that keeps it current.
#include "engine/state/thread_table.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>

#include "engine/decode/syscall_names.h"
#include "engine/state/state_syscalls.h"
#include "event_record_builder.h"
#include "record_test_builder.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::EventHeader;
using ::kestrel::testing::EventRecord;
using ::kestrel::testing::Str;
using ::kestrel::testing::StrList;

constexpr uint64_t kSecond = 1'000'000'000;

ThreadTableOptions NoProc() {
  ThreadTableOptions o;
  o.proc_fallback = false;
  return o;
}

void Apply(ThreadTable& t, const std::vector<uint8_t>& bytes) {
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status();
  t.Apply(*view);
}

ThreadInfo Thread(uint32_t tid, uint32_t tgid, uint32_t ppid, std::string comm,
                  std::string exe = "/usr/bin/bash") {
  ThreadInfo t;
  t.tid = tid;
  t.tgid = tgid;
  t.ppid = ppid;
  t.comm = std::move(comm);
  t.exe = std::move(exe);
  return t;
}

TEST(ThreadTableTest, SeedFromProcKnowsThisThread) {
  ThreadTable t(NoProc());
  t.SeedFromProc();
  const ThreadInfo* self = t.Find(static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->tgid, static_cast<uint32_t>(getpid()));
  EXPECT_EQ(self->ppid, static_cast<uint32_t>(getppid()));
  char comm[16] = {};
  ASSERT_EQ(prctl(PR_GET_NAME, comm, 0, 0, 0), 0);
  EXPECT_EQ(self->comm, comm);
  char exe[4096] = {};
  ASSERT_GT(readlink("/proc/self/exe", exe, sizeof(exe) - 1), 0);
  EXPECT_EQ(self->exepath, exe);
  EXPECT_GT(t.size(), 1u);
}

TEST(ThreadTableTest, ForkChildInheritsTheCallersEntry) {
  ThreadTable t(NoProc());
  ThreadInfo bash = Thread(100, 100, 1, "bash");
  bash.cgroups = {"cpu=/user.slice", "memory=/user.slice"};
  t.Insert(bash);
  Apply(t, EventRecord(KESTREL_EVT_CLONE, {.tid = 100, .tgid = 100},
                       {{"res", 200}, {"child_tid", 200}, {"child_pid", 200}, {"flags", SIGCHLD}}));
  const ThreadInfo* child = t.Find(200);
  ASSERT_NE(child, nullptr);
  EXPECT_EQ(child->tgid, 200u);
  EXPECT_EQ(child->ppid, 100u);
  EXPECT_EQ(child->comm, "bash");
  EXPECT_EQ(child->exe, "/usr/bin/bash");
  // A record naming no cgroups leaves the caller's.
  EXPECT_EQ(child->cgroups, bash.cgroups);
}

// Falco's proc.duration counts from the clone: the child starts at the
// record's time on the wall clock, and stays unknown without a boot time.
TEST(ThreadTableTest, ForkChildStartsAtTheClone) {
  ThreadTableOptions options = NoProc();
  options.boot_time_ns = 1'700'000'000'000'000'000;
  ThreadTable t(options);
  t.Insert(Thread(100, 100, 1, "bash"));
  Apply(t, EventRecord(KESTREL_EVT_CLONE, {.tid = 100, .tgid = 100, .ts_ns = 5'000'000'000},
                       {{"res", 200}, {"child_tid", 200}, {"child_pid", 200}, {"flags", SIGCHLD}}));
  ASSERT_NE(t.Find(200), nullptr);
  EXPECT_EQ(t.Find(200)->start_ns, 1'700'000'005'000'000'000u);

  ThreadTable unknown(NoProc());
  unknown.Insert(Thread(100, 100, 1, "bash"));
  Apply(unknown,
        EventRecord(KESTREL_EVT_CLONE, {.tid = 100, .tgid = 100, .ts_ns = 5'000'000'000},
                    {{"res", 200}, {"child_tid", 200}, {"child_pid", 200}, {"flags", SIGCHLD}}));
  ASSERT_NE(unknown.Find(200), nullptr);
  EXPECT_EQ(unknown.Find(200)->start_ns, 0u);
}

TEST(ThreadTableTest, NewThreadSharesTheCallersProcessAndParent) {
  ThreadTable t(NoProc());
  t.Insert(Thread(100, 100, 1, "server"));
  Apply(t, EventRecord(KESTREL_EVT_CLONE3, {.tid = 100, .tgid = 100},
                       {{"res", 101},
                        {"child_tid", 101},
                        {"child_pid", 100},
                        {"flags", CLONE_VM | CLONE_THREAD}}));
  const ThreadInfo* thread = t.Find(101);
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(thread->tgid, 100u);
  EXPECT_EQ(thread->ppid, 1u);
  EXPECT_EQ(thread->comm, "server");
}

TEST(ThreadTableTest, ChildReturnAndFailedCloneAddNobody) {
  ThreadTable t(NoProc());
  t.Insert(Thread(100, 100, 1, "bash"));
  Apply(t,
        EventRecord(KESTREL_EVT_FORK, {.tid = 300, .tgid = 300}, {{"res", 0}, {"child_pid", 300}}));
  Apply(t, EventRecord(KESTREL_EVT_VFORK, {.tid = 100, .tgid = 100}, {{"res", -11}}));
  EXPECT_EQ(t.Find(300), nullptr);
  EXPECT_EQ(t.size(), 1u);
}

TEST(ThreadTableTest, ExecTakesCommExeAndParentFromTheRecord) {
  ThreadTable t(NoProc());
  t.Insert(Thread(200, 200, 100, "bash"));
  Apply(t, EventRecord(KESTREL_EVT_EXECVE, {.tid = 200, .tgid = 200}, {{"res", 0}, {"ppid", 100}},
                       {{"comm", Str("cat")}, {"exe", Str("/usr/bin/cat")}}));
  const ThreadInfo* t200 = t.Find(200);
  ASSERT_NE(t200, nullptr);
  EXPECT_EQ(t200->comm, "cat");
  EXPECT_EQ(t200->exe, "/usr/bin/cat");
  EXPECT_EQ(t200->ppid, 100u);
}

TEST(ThreadTableTest, FailedExecKeepsTheExe) {
  ThreadTable t(NoProc());
  t.Insert(Thread(200, 200, 100, "bash"));
  Apply(t, EventRecord(KESTREL_EVT_EXECVE, {.tid = 200, .tgid = 200}, {{"res", -2}},
                       {{"comm", Str("bash")}, {"exe", Str("/nonexistent")}}));
  EXPECT_EQ(t.Find(200)->comm, "bash");
  EXPECT_EQ(t.Find(200)->exe, "/usr/bin/bash");
}

TEST(ThreadTableTest, PrctlSetNameRenamesOnlyThatThread) {
  ThreadTable t(NoProc());
  t.Insert(Thread(100, 100, 1, "worker"));
  t.Insert(Thread(101, 100, 1, "worker"));
  Apply(t, EventRecord(KESTREL_EVT_PRCTL, {.tid = 101, .tgid = 100},
                       {{"res", 0}, {"option", PR_SET_NAME}}, {{"arg2_str", Str("sshd")}}));
  EXPECT_EQ(t.Find(101)->comm, "sshd");
  EXPECT_EQ(t.Find(100)->comm, "worker");
  // Other options carry no name and rename nobody.
  Apply(t, EventRecord(KESTREL_EVT_PRCTL, {.tid = 100, .tgid = 100},
                       {{"res", 0}, {"option", PR_SET_DUMPABLE}}));
  EXPECT_EQ(t.Find(100)->comm, "worker");
}

TEST(ThreadTableTest, ExitedThreadResolvesUntilItsGraceEnds) {
  ThreadTableOptions o = NoProc();
  o.exit_grace_ns = 2 * kSecond;
  ThreadTable t(o);
  t.Insert(Thread(200, 200, 100, "cat"));
  t.Insert(Thread(100, 100, 1, "bash"));
  Apply(t, EventRecord(KESTREL_EVT_PROCESS_EXIT, {.tid = 200, .tgid = 200, .ts_ns = 10 * kSecond},
                       {{"group_dead", 1}}));
  ASSERT_NE(t.Find(200), nullptr);
  EXPECT_TRUE(t.Find(200)->exited);
  // A late record of another thread, inside the grace: still there.
  Apply(t, EventRecord(KESTREL_EVT_PRCTL, {.tid = 100, .tgid = 100, .ts_ns = 11 * kSecond}, {}));
  EXPECT_NE(t.Find(200), nullptr);
  Apply(t, EventRecord(KESTREL_EVT_PRCTL, {.tid = 100, .tgid = 100, .ts_ns = 13 * kSecond}, {}));
  EXPECT_EQ(t.Find(200), nullptr);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.evictions(), 0u);
}

TEST(ThreadTableTest, ReusedTidIsNotRemovedByTheOldExit) {
  ThreadTableOptions o = NoProc();
  o.exit_grace_ns = 2 * kSecond;
  ThreadTable t(o);
  t.Insert(Thread(100, 100, 1, "bash"));
  t.Insert(Thread(200, 200, 100, "old"));
  Apply(t, EventRecord(KESTREL_EVT_PROCESS_EXIT, {.tid = 200, .tgid = 200, .ts_ns = kSecond}, {}));
  Apply(t, EventRecord(KESTREL_EVT_FORK, {.tid = 100, .tgid = 100, .ts_ns = 2 * kSecond},
                       {{"res", 200}, {"child_tid", 200}, {"child_pid", 200}}));
  Apply(t, EventRecord(KESTREL_EVT_PRCTL, {.tid = 100, .tgid = 100, .ts_ns = 9 * kSecond}, {}));
  ASSERT_NE(t.Find(200), nullptr);
  EXPECT_EQ(t.Find(200)->comm, "bash");
  EXPECT_FALSE(t.Find(200)->exited);
}

TEST(ThreadTableTest, FullTableEvictsExitedThreadsFirst) {
  ThreadTableOptions o = NoProc();
  o.max_entries = 3;
  ThreadTable t(o);
  t.Insert(Thread(1, 1, 0, "init"));
  t.Insert(Thread(2, 2, 1, "a"));
  t.Insert(Thread(3, 3, 1, "b"));
  Apply(t, EventRecord(KESTREL_EVT_PROCESS_EXIT, {.tid = 2, .tgid = 2}, {}));
  t.Insert(Thread(4, 4, 1, "c"));
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.Find(2), nullptr);
  EXPECT_NE(t.Find(1), nullptr);
  EXPECT_NE(t.Find(3), nullptr);
  EXPECT_EQ(t.evictions(), 1u);
  // No dead left: a live one goes, and the bound holds.
  t.Insert(Thread(5, 5, 1, "d"));
  EXPECT_EQ(t.size(), 3u);
  EXPECT_NE(t.Find(5), nullptr);
  EXPECT_EQ(t.evictions(), 2u);
}

TEST(ThreadTableTest, RecordHeaderUpdatesTheProcessId) {
  ThreadTable t(NoProc());
  t.Insert(Thread(150, 140, 1, "app"));
  // The thread exec'd as its group's new leader: the header says so.
  Apply(t, EventRecord(KESTREL_EVT_PRCTL, {.tid = 150, .tgid = 150}, {}));
  EXPECT_EQ(t.Find(150)->tgid, 150u);
}

TEST(ThreadTableTest, UnknownThreadFallsBackToProcOnce) {
  ThreadTable t;  // /proc fallback on, nothing seeded
  const ThreadInfo* self =
      t.Resolve(static_cast<uint32_t>(getpid()), static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  EXPECT_FALSE(self->comm.empty());
  // This thread, then each unknown ancestor (UnknownThreadsParentIsRead...).
  const uint64_t reads = t.proc_fallbacks();
  EXPECT_GE(reads, 1u);
  t.Resolve(static_cast<uint32_t>(getpid()), static_cast<uint32_t>(gettid()));
  EXPECT_EQ(t.proc_fallbacks(), reads);
  // A thread /proc does not show is remembered as unnamed.
  const ThreadInfo* gone = t.Resolve(4'000'000'000u, 4'000'000'001u);
  ASSERT_NE(gone, nullptr);
  EXPECT_TRUE(gone->comm.empty());
}

// A thread that came up behind lost records brings its parent with it,
// while /proc still shows it: proc.pname walks the table only.
TEST(ThreadTableTest, UnknownThreadsParentIsReadFromProcToo) {
  ThreadTable t;  // /proc fallback on, nothing seeded
  const ThreadInfo* self =
      t.Resolve(static_cast<uint32_t>(getpid()), static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->ppid, static_cast<uint32_t>(getppid()));
  const ThreadInfo* parent = t.Find(static_cast<uint32_t>(getppid()));
  ASSERT_NE(parent, nullptr);
  EXPECT_FALSE(parent->comm.empty());
  EXPECT_EQ(t.Ancestor(*t.Find(static_cast<uint32_t>(gettid())), 1), parent);
}

// An exec whose caller and parent are both unknown (their clones lost): the
// record names the parent, and the table reads it.
TEST(ThreadTableTest, ExecOfAnUnknownThreadReadsItsParent) {
  ThreadTable t;
  const uint32_t parent = static_cast<uint32_t>(getpid());
  Apply(t, EventRecord(KESTREL_EVT_EXECVE, {.tid = 4'000'000'001u, .tgid = 4'000'000'001u},
                       {{"res", 0}, {"ppid", parent}}, {{"comm", Str("true")}}));
  const ThreadInfo* p = t.Find(parent);
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->comm.empty());
}

TEST(ThreadTableTest, StateSyscallsNameWhatTheTableNeeds) {
  std::vector<std::string_view> names;
  for (uint32_t id : StateSyscalls()) names.push_back(SyscallName(id));
  std::sort(names.begin(), names.end());
  // The table's own; the updates' (credentials, descriptors) are in
  // test/unit/state/process_updates_test.cpp.
  for (std::string_view name :
       {"clone", "clone3", "execve", "execveat", "exit", "exit_group", "fork", "prctl", "vfork"}) {
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), name)) << name;
  }
}

TEST(ThreadTableTest, CloneCallerRecordNamesTheChildInItsNamespace) {
  ThreadTable t(NoProc());
  ThreadInfo parent = Thread(100, 100, 1, "runc");
  parent.exepath = "/usr/bin/runc";
  parent.cap_effective = 0x3f;
  t.Insert(parent);
  // res is the child's id as the caller sees it; the host ids are child_*.
  Apply(t, EventRecord(KESTREL_EVT_CLONE, {.tid = 100, .tgid = 100},
                       {{"res", 7000},
                        {"child_tid", 7000},
                        {"child_pid", 7000},
                        {"child_vtid", 1},
                        {"child_vpid", 1},
                        {"flags", CLONE_NEWPID | SIGCHLD},
                        {"uid", 0},
                        {"gid", 0}},
                       {{"exe", Str("runc")},
                        {"args", StrList({"init"})},
                        {"comm", Str("runc:[1:CHILD]")},
                        {"cgroups", StrList({"cpu=/ctr/abc", "memory=/ctr/abc"})}}));
  const ThreadInfo* child = t.Find(7000);
  ASSERT_NE(child, nullptr);
  EXPECT_EQ(child->tgid, 7000u);
  EXPECT_EQ(child->ppid, 100u);
  EXPECT_EQ(child->vtid, 1u);
  EXPECT_EQ(child->vpid, 1u);
  EXPECT_EQ(child->comm, "runc:[1:CHILD]");
  EXPECT_EQ(child->exe, "runc");
  EXPECT_EQ(child->args, (std::vector<std::string>{"init"}));
  EXPECT_EQ(child->cgroup, "/ctr/abc");
  EXPECT_EQ(child->cgroups, (std::vector<std::string>{"cpu=/ctr/abc", "memory=/ctr/abc"}));
  EXPECT_EQ(child->euid, 0u);
  // Not in the record: inherited from the caller's entry.
  EXPECT_EQ(child->exepath, "/usr/bin/runc");
  EXPECT_EQ(child->cap_effective, 0x3fu);
}

TEST(ThreadTableTest, ExecFillsTheProcessFacts) {
  ThreadTable t(NoProc());
  t.Insert(Thread(200, 200, 100, "bash"));
  Apply(t, EventRecord(KESTREL_EVT_EXECVE, {.tid = 200, .tgid = 200},
                       {{"res", 0},
                        {"ppid", 100},
                        {"uid", 1000},
                        {"gid", 1001},
                        {"ruid", 1002},
                        {"rgid", 1003},
                        {"loginuid", 1000},
                        {"cap_effective", 1},
                        {"cap_permitted", 3},
                        {"cap_inheritable", 0},
                        {"exe_ino", 42},
                        {"exe_ino_ctime", 5},
                        {"exe_ino_mtime", 6},
                        {"exe_writable", 1},
                        {"exe_memfd", 0},
                        {"exe_upper_layer", 1},
                        {"sid", 90},
                        {"pgid", 91},
                        {"tty", 34816}},
                       {{"comm", Str("cat")},
                        {"exe", Str("cat")},
                        {"args", StrList({"/etc/hosts"})},
                        {"env", StrList({"A=1"})},
                        {"cwd", Str("/root")},
                        {"trusted_exepath", Str("/usr/bin/cat")},
                        {"cgroups", StrList({"cpuset=/system.slice/x.service"})}}));
  const ThreadInfo* e = t.Find(200);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->comm, "cat");
  EXPECT_EQ(e->exe, "cat");
  EXPECT_EQ(e->exepath, "/usr/bin/cat");
  EXPECT_EQ(e->args, (std::vector<std::string>{"/etc/hosts"}));
  EXPECT_EQ(e->env, (std::vector<std::string>{"A=1"}));
  EXPECT_EQ(e->cwd, "/root");
  EXPECT_EQ(e->euid, 1000u);
  EXPECT_EQ(e->egid, 1001u);
  EXPECT_EQ(e->uid, 1002u);
  EXPECT_EQ(e->gid, 1003u);
  EXPECT_EQ(e->loginuid, 1000u);
  EXPECT_EQ(e->cap_effective, 1u);
  EXPECT_EQ(e->cap_permitted, 3u);
  EXPECT_EQ(e->exe_ino, 42u);
  EXPECT_EQ(e->exe_ctime_ns, 5u);
  EXPECT_EQ(e->exe_mtime_ns, 6u);
  EXPECT_TRUE(e->exe_writable);
  EXPECT_FALSE(e->exe_from_memfd);
  EXPECT_TRUE(e->exe_upper_layer);
  EXPECT_EQ(e->sid, 90u);
  EXPECT_EQ(e->pgid, 91u);
  EXPECT_EQ(e->tty, 34816u);
  EXPECT_EQ(e->cgroup, "/system.slice/x.service");
  EXPECT_EQ(e->cgroups, (std::vector<std::string>{"cpuset=/system.slice/x.service"}));
}

TEST(ThreadTableTest, ExitReparentsOrphansToTheReaper) {
  ThreadTable t(NoProc());
  t.Insert(Thread(50, 50, 1, "subreaper"));
  t.Insert(Thread(100, 100, 50, "parent"));
  t.Insert(Thread(200, 200, 100, "orphan"));
  t.Insert(Thread(201, 200, 100, "orphan"));
  Apply(t, EventRecord(KESTREL_EVT_PROCESS_EXIT, {.tid = 100, .tgid = 100},
                       {{"reaper_tid", 50}, {"group_dead", 1}}));
  EXPECT_EQ(t.Find(200)->ppid, 50u);
  EXPECT_EQ(t.Find(201)->ppid, 50u);
  EXPECT_EQ(t.Find(100)->ppid, 50u);  // its own parent is not its child's
}

TEST(ThreadTableTest, ThreadExitWithALiveSiblingKeepsTheParent) {
  ThreadTable t(NoProc());
  t.Insert(Thread(100, 100, 1, "server"));
  t.Insert(Thread(101, 100, 1, "server"));
  t.Insert(Thread(300, 300, 100, "child"));
  // The thread that made the child leaves; its sibling 100 inherits it.
  Apply(t, EventRecord(KESTREL_EVT_PROCESS_EXIT, {.tid = 101, .tgid = 100},
                       {{"reaper_tid", 100}, {"group_dead", 0}}));
  EXPECT_EQ(t.Find(300)->ppid, 100u);
}

}  // namespace
}  // namespace kestrel::engine
