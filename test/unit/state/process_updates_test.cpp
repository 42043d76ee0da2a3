// Credentials, directories, capabilities, session and group from synthetic
// records; lineage over the table.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/decode/syscall_names.h"
#include "engine/state/fd_table.h"
#include "engine/state/state_syscalls.h"
#include "engine/state/thread_table.h"
#include "state_records.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::ApplyRecord;
using ::kestrel::testing::EventRecord;
using ::kestrel::testing::NoProcFallback;
using ::kestrel::testing::Str;

constexpr uint64_t kAllCaps = 0x1ffffffffff;
constexpr int64_t kUnchanged = -1;

ThreadInfo Process(uint32_t pid, uint32_t ppid, std::string comm, uint32_t uid = 1000) {
  ThreadInfo t;
  t.tid = t.tgid = pid;
  t.ppid = ppid;
  t.comm = std::move(comm);
  t.uid = t.euid = uid;
  t.gid = t.egid = uid;
  t.cwd = "/home/u";
  t.root = "/";
  t.cap_effective = uid == 0 ? kAllCaps : 0;
  return t;
}

class ProcessUpdatesTest : public ::testing::Test {
 protected:
  ProcessUpdatesTest() : table_(NoProcFallback()) {}
  void Apply(uint16_t type, const std::map<std::string, int64_t>& ints,
             const std::map<std::string, testing::ParamBytes>& bytes = {}, uint32_t pid = 100) {
    ApplyRecord(table_, EventRecord(type, {.tid = pid, .tgid = pid}, ints, bytes));
  }
  const ThreadInfo& Get(uint32_t tid) {
    const ThreadInfo* t = table_.Find(tid);
    EXPECT_NE(t, nullptr);
    return *t;
  }
  ThreadTable table_;
};

TEST_F(ProcessUpdatesTest, SetuidAsRootChangesEveryUid) {
  table_.Insert(Process(100, 1, "sudo", 0));
  Apply(KESTREL_EVT_SETUID, {{"res", 0}, {"uid", 1000}});
  EXPECT_EQ(Get(100).uid, 1000u);
  EXPECT_EQ(Get(100).euid, 1000u);
}

TEST_F(ProcessUpdatesTest, SetuidUnprivilegedChangesTheEffectiveOnly) {
  table_.Insert(Process(100, 1, "app", 1000));
  Apply(KESTREL_EVT_SETUID, {{"res", 0}, {"uid", 1001}});
  EXPECT_EQ(Get(100).uid, 1000u);
  EXPECT_EQ(Get(100).euid, 1001u);
}

TEST_F(ProcessUpdatesTest, AFailedSetuidChangesNothing) {
  table_.Insert(Process(100, 1, "app", 1000));
  Apply(KESTREL_EVT_SETUID, {{"res", -1}, {"uid", 0}});
  EXPECT_EQ(Get(100).uid, 1000u);
  EXPECT_EQ(Get(100).euid, 1000u);
}

TEST_F(ProcessUpdatesTest, SetgidAsRootChangesEveryGid) {
  table_.Insert(Process(100, 1, "sudo", 0));
  Apply(KESTREL_EVT_SETGID, {{"res", 0}, {"gid", 50}});
  EXPECT_EQ(Get(100).gid, 50u);
  EXPECT_EQ(Get(100).egid, 50u);
}

TEST_F(ProcessUpdatesTest, SetreuidAndSetresuidLeaveMinusOneAsIs) {
  table_.Insert(Process(100, 1, "sudo", 0));
  Apply(KESTREL_EVT_SETREUID, {{"res", 0}, {"ruid", kUnchanged}, {"euid", 33}});
  EXPECT_EQ(Get(100).uid, 0u);
  EXPECT_EQ(Get(100).euid, 33u);
  Apply(KESTREL_EVT_SETRESUID, {{"res", 0}, {"ruid", 44}, {"euid", kUnchanged}, {"suid", 44}});
  EXPECT_EQ(Get(100).uid, 44u);
  EXPECT_EQ(Get(100).euid, 33u);
}

TEST_F(ProcessUpdatesTest, SetresgidChangesRealAndEffective) {
  table_.Insert(Process(100, 1, "sudo", 0));
  Apply(KESTREL_EVT_SETRESGID, {{"res", 0}, {"rgid", 7}, {"egid", 8}, {"sgid", 9}});
  EXPECT_EQ(Get(100).gid, 7u);
  EXPECT_EQ(Get(100).egid, 8u);
  Apply(KESTREL_EVT_SETRESGID, {{"res", -1}, {"rgid", 1}, {"egid", 1}, {"sgid", 1}});
  EXPECT_EQ(Get(100).gid, 7u);
}

TEST_F(ProcessUpdatesTest, ChdirResolvesAgainstTheCwd) {
  table_.Insert(Process(100, 1, "sh"));
  Apply(KESTREL_EVT_CHDIR, {{"res", 0}}, {{"path", Str("../v/./src")}});
  EXPECT_EQ(Get(100).cwd, "/home/v/src");
  Apply(KESTREL_EVT_CHDIR, {{"res", 0}}, {{"path", Str("/tmp")}});
  EXPECT_EQ(Get(100).cwd, "/tmp");
  Apply(KESTREL_EVT_CHDIR, {{"res", -2}}, {{"path", Str("/nonexistent")}});
  EXPECT_EQ(Get(100).cwd, "/tmp");
}

TEST_F(ProcessUpdatesTest, FchdirTakesTheDirectoryOfTheDescriptor) {
  table_.Insert(Process(100, 1, "sh"));
  Apply(KESTREL_EVT_OPENAT, {{"fd", 5}, {"dirfd", AT_FDCWD}, {"flags", O_RDONLY | O_DIRECTORY}},
        {{"path", Str("/var/log")}});
  Apply(KESTREL_EVT_FCHDIR, {{"res", 0}, {"fd", 5}});
  EXPECT_EQ(Get(100).cwd, "/var/log");
  Apply(KESTREL_EVT_FCHDIR, {{"res", 0}, {"fd", 9}});  // not known: unchanged
  EXPECT_EQ(Get(100).cwd, "/var/log");
}

TEST_F(ProcessUpdatesTest, ChrootResolvesAgainstTheCwd) {
  table_.Insert(Process(100, 1, "sh", 0));
  Apply(KESTREL_EVT_CHROOT, {{"res", 0}}, {{"path", Str("jail")}});
  EXPECT_EQ(Get(100).root, "/home/u/jail");
  Apply(KESTREL_EVT_CHROOT, {{"res", -1}}, {{"path", Str("/")}});
  EXPECT_EQ(Get(100).root, "/home/u/jail");
}

TEST_F(ProcessUpdatesTest, CapsetTakesTheSetsTheRecordCarries) {
  table_.Insert(Process(100, 1, "sh", 0));
  Apply(KESTREL_EVT_CAPSET,
        {{"res", 0}, {"cap_effective", 0x3}, {"cap_permitted", 0x7}, {"cap_inheritable", 0x1}});
  EXPECT_EQ(Get(100).cap_effective, 0x3u);
  EXPECT_EQ(Get(100).cap_permitted, 0x7u);
  EXPECT_EQ(Get(100).cap_inheritable, 0x1u);
  Apply(KESTREL_EVT_CAPSET, {{"res", -1}, {"cap_effective", 0}});
  EXPECT_EQ(Get(100).cap_effective, 0x3u);
}

TEST_F(ProcessUpdatesTest, AncestorsWalkTheParents) {
  table_.Insert(Process(1, 0, "systemd"));
  table_.Insert(Process(10, 1, "sshd"));
  table_.Insert(Process(20, 10, "bash"));
  table_.Insert(Process(30, 20, "curl"));
  const ThreadInfo& curl = Get(30);
  EXPECT_EQ(table_.Ancestor(curl, 0), &curl);
  ASSERT_NE(table_.Ancestor(curl, 1), nullptr);
  EXPECT_EQ(table_.Ancestor(curl, 1)->comm, "bash");
  ASSERT_NE(table_.Ancestor(curl, 2), nullptr);
  EXPECT_EQ(table_.Ancestor(curl, 2)->comm, "sshd");
  ASSERT_NE(table_.Ancestor(curl, 3), nullptr);
  EXPECT_EQ(table_.Ancestor(curl, 3)->comm, "systemd");
  EXPECT_EQ(table_.Ancestor(curl, 4), nullptr);
  EXPECT_EQ(table_.Ancestor(curl, -1), nullptr);
}

TEST_F(ProcessUpdatesTest, AncestorsStopAtAnUnknownParentAndALoop) {
  table_.Insert(Process(20, 10, "orphan"));
  EXPECT_EQ(table_.Ancestor(Get(20), 1), nullptr);
  table_.Insert(Process(40, 50, "a"));
  table_.Insert(Process(50, 40, "b"));
  EXPECT_NE(table_.Ancestor(Get(40), 200), nullptr) << "bounded, not endless";
  EXPECT_EQ(table_.Ancestor(Get(40), 100000), nullptr);
}

TEST(StateSyscallsTest, IncludeCredentialDirectoryAndDescriptorSyscalls) {
  const std::vector<uint32_t>& ids = StateSyscalls();
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  for (std::string_view name :
       {"clone",  "execve", "prctl",      "exit_group", "setuid", "setresgid",   "chdir",
        "fchdir", "chroot", "capset",     "open",       "openat", "openat2",     "creat",
        "close",  "socket", "socketpair", "connect",    "accept", "accept4",     "bind",
        "listen", "dup",    "dup2",       "dup3",       "fcntl",  "memfd_create"}) {
    const std::optional<uint32_t> id = SyscallId(name);
    ASSERT_TRUE(id.has_value()) << name;
    EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), *id)) << name;
  }
  for (std::string_view name : {"read", "write", "mmap"}) {
    EXPECT_FALSE(std::binary_search(ids.begin(), ids.end(), *SyscallId(name))) << name;
  }
}

}  // namespace
}  // namespace kestrel::engine
