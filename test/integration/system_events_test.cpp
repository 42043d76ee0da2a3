// System events: credential queries, limits, memory, sleeping, futexes,
// keys, System V semaphores, io_uring and process_vm_*. Each syscall is
// made for real, succeeding and failing, and every decoded value checked.
// Calls that change the process (ids, session, process group) run in a
// forked child, whose own records are checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

constexpr uint64_t kPage = 4096;

class SystemEventsTest : public FileEventsTest {
 protected:
  // Every record now in the rings, by thread and then by event type: tests
  // whose children make the calls need the records of several threads from
  // one drain.
  static std::map<uint32_t, std::map<uint16_t, std::vector<OwnedRecord>>> DrainByThread(
      ProbeSession& session) {
    std::map<uint32_t, std::map<uint16_t, std::vector<OwnedRecord>>> out;
    for (;;) {
      void* record = nullptr;
      int16_t ring = -1;
      EXPECT_EQ(pman_consume_first_event(session.handle(), &record, &ring), 0);
      if (record == nullptr) break;
      const auto* h = static_cast<const kestrel_record_header*>(record);
      out[h->tid][h->type].emplace_back(h);
    }
    return out;
  }

  // Runs `body` in a forked child and returns the child's pid once it
  // exited with status 0 (a non-zero status names the step that failed).
  template <typename Body>
  static pid_t RunInChild(Body body) {
    const pid_t child = fork();
    if (child == 0) _exit(body());
    int status = -1;
    EXPECT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
    return child;
  }
};

// Ids are changed in a child so the test keeps root; the distinct values
// prove each parameter is the one it names.
int ChangeAndQueryIds() {
  if (syscall(SYS_setregid, 3001, 3002) != 0) return 1;
  if (syscall(SYS_setresgid, 2001, 2002, 2003) != 0) return 2;
  if (syscall(SYS_setresuid, 1001, 1002, 1003) != 0) return 3;
  uid_t r = 0, e = 0, s = 0;
  gid_t gr = 0, ge = 0, gs = 0;
  if (syscall(SYS_getresuid, &r, &e, &s) != 0 || r != 1001 || e != 1002 || s != 1003) return 4;
  if (syscall(SYS_getresgid, &gr, &ge, &gs) != 0 || gr != 2001 || ge != 2002 || gs != 2003)
    return 5;
  if (syscall(SYS_getresuid, nullptr, nullptr, nullptr) != -1 || errno != EFAULT) return 6;
  if (syscall(SYS_getresgid, nullptr, nullptr, nullptr) != -1 || errno != EFAULT) return 7;
  if (syscall(SYS_getuid) != 1001 || syscall(SYS_geteuid) != 1002) return 8;
  if (syscall(SYS_getgid) != 2001 || syscall(SYS_getegid) != 2002) return 9;
  // No longer privileged: a gid outside the three it holds is refused.
  if (syscall(SYS_setregid, 0, 0) != -1 || errno != EPERM) return 10;
  return 0;
}

TEST_F(SystemEventsTest, CredentialQueriesAndSetregidInAChild) {
  auto session = Start({SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getresuid,
                        SYS_getresgid, SYS_setregid},
                       {.trace_only_this_process = false});
  ASSERT_NE(session, nullptr);
  const pid_t child = RunInChild(ChangeAndQueryIds);
  auto got = DrainByThread(*session)[static_cast<uint32_t>(child)];

  const auto& setregid = got[KESTREL_EVT_SETREGID];
  ASSERT_EQ(setregid.size(), 2u);
  EXPECT_EQ(setregid[0].Event().Int("res"), 0);
  EXPECT_EQ(setregid[0].Event().Int("rgid"), 3001);
  EXPECT_EQ(setregid[0].Event().Int("egid"), 3002);
  EXPECT_EQ(setregid[1].Event().Int("res"), -EPERM);
  EXPECT_EQ(setregid[1].Event().Int("rgid"), 0);
  EXPECT_EQ(setregid[1].Event().Int("egid"), 0);

  const auto& resuid = got[KESTREL_EVT_GETRESUID];
  ASSERT_EQ(resuid.size(), 2u);
  EXPECT_EQ(resuid[0].Event().Int("res"), 0);
  EXPECT_EQ(resuid[0].Event().Int("ruid"), 1001);
  EXPECT_EQ(resuid[0].Event().Int("euid"), 1002);
  EXPECT_EQ(resuid[0].Event().Int("suid"), 1003);
  // Unreadable out-pointers read as 0.
  EXPECT_EQ(resuid[1].Event().Int("res"), -EFAULT);
  EXPECT_EQ(resuid[1].Event().Int("ruid"), 0);
  EXPECT_EQ(resuid[1].Event().Int("euid"), 0);
  EXPECT_EQ(resuid[1].Event().Int("suid"), 0);

  const auto& resgid = got[KESTREL_EVT_GETRESGID];
  ASSERT_EQ(resgid.size(), 2u);
  EXPECT_EQ(resgid[0].Event().Int("res"), 0);
  EXPECT_EQ(resgid[0].Event().Int("rgid"), 2001);
  EXPECT_EQ(resgid[0].Event().Int("egid"), 2002);
  EXPECT_EQ(resgid[0].Event().Int("sgid"), 2003);
  EXPECT_EQ(resgid[1].Event().Int("res"), -EFAULT);
  EXPECT_EQ(resgid[1].Event().Int("rgid"), 0);
  EXPECT_EQ(resgid[1].Event().Int("egid"), 0);
  EXPECT_EQ(resgid[1].Event().Int("sgid"), 0);

  // get[e]uid/get[e]gid cannot fail: their one parameter is the id.
  ASSERT_EQ(got[KESTREL_EVT_GETUID].size(), 1u);
  EXPECT_EQ(got[KESTREL_EVT_GETUID][0].Event().Int("uid"), 1001);
  ASSERT_EQ(got[KESTREL_EVT_GETEUID].size(), 1u);
  EXPECT_EQ(got[KESTREL_EVT_GETEUID][0].Event().Int("euid"), 1002);
  ASSERT_EQ(got[KESTREL_EVT_GETGID].size(), 1u);
  EXPECT_EQ(got[KESTREL_EVT_GETGID][0].Event().Int("gid"), 2001);
  ASSERT_EQ(got[KESTREL_EVT_GETEGID].size(), 1u);
  EXPECT_EQ(got[KESTREL_EVT_GETEGID][0].Event().Int("egid"), 2002);
}

// The child makes itself a process group leader, which setsid refuses;
// its own child, no leader, gets a new session whose id is its pid.
int ProcessGroupAndSession() {
  if (syscall(SYS_setpgid, 0, 0) != 0) return 1;
  if (syscall(SYS_setpgid, -1, 0) != -1 || errno != EINVAL) return 2;
  if (syscall(SYS_setsid) != -1 || errno != EPERM) return 3;
  const pid_t grandchild = fork();
  if (grandchild == 0) _exit(syscall(SYS_setsid) == getpid() ? 0 : 1);
  int status = -1;
  if (waitpid(grandchild, &status, 0) != grandchild || !WIFEXITED(status)) return 4;
  if (WEXITSTATUS(status) != 0) return 5;
  // The grandchild's pid, for the test to find its records.
  return write(3, &grandchild, sizeof(grandchild)) == sizeof(grandchild) ? 0 : 6;
}

TEST_F(SystemEventsTest, SetpgidAndSetsidInChildren) {
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  auto session = Start({SYS_setpgid, SYS_setsid}, {.trace_only_this_process = false});
  ASSERT_NE(session, nullptr);
  const pid_t child = RunInChild([&] {
    if (dup2(pipefd[1], 3) != 3) return 7;
    return ProcessGroupAndSession();
  });
  pid_t grandchild = 0;
  ASSERT_EQ(read(pipefd[0], &grandchild, sizeof(grandchild)),
            static_cast<ssize_t>(sizeof(grandchild)));
  close(pipefd[0]);
  close(pipefd[1]);
  auto by_thread = DrainByThread(*session);
  auto& got = by_thread[static_cast<uint32_t>(child)];

  const auto& setpgid = got[KESTREL_EVT_SETPGID];
  ASSERT_EQ(setpgid.size(), 2u);
  EXPECT_EQ(setpgid[0].Event().Int("res"), 0);
  EXPECT_EQ(setpgid[0].Event().Int("pid"), 0);
  EXPECT_EQ(setpgid[0].Event().Int("pgid"), 0);
  EXPECT_EQ(setpgid[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(setpgid[1].Event().Int("pid"), -1);
  EXPECT_EQ(setpgid[1].Event().Int("pgid"), 0);

  ASSERT_EQ(got[KESTREL_EVT_SETSID].size(), 1u);
  EXPECT_EQ(got[KESTREL_EVT_SETSID][0].Event().Int("res"), -EPERM);
  const auto& setsid = by_thread[static_cast<uint32_t>(grandchild)][KESTREL_EVT_SETSID];
  ASSERT_EQ(setsid.size(), 1u);
  EXPECT_EQ(setsid[0].Event().Int("res"), grandchild);
}

TEST_F(SystemEventsTest, ResourceLimits) {
  struct rlimit nofile {};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &nofile), 0);
  auto session = Start({SYS_getrlimit, SYS_setrlimit, SYS_prlimit64});
  ASSERT_NE(session, nullptr);
  struct rlimit got_limit {};
  ASSERT_EQ(syscall(SYS_getrlimit, RLIMIT_NOFILE, &got_limit), 0);
  ASSERT_EQ(syscall(SYS_getrlimit, 9999, &got_limit), -1);
  ASSERT_EQ(syscall(SYS_setrlimit, RLIMIT_NOFILE, &nofile), 0);
  const struct rlimit inverted = {.rlim_cur = 200, .rlim_max = 100};
  ASSERT_EQ(syscall(SYS_setrlimit, RLIMIT_NOFILE, &inverted), -1);
  struct rlimit old {};
  ASSERT_EQ(syscall(SYS_prlimit64, getpid(), RLIMIT_NOFILE, &nofile, &old), 0);
  ASSERT_EQ(syscall(SYS_prlimit64, 0, 9999, nullptr, &old), -1);

  auto got = DrainByType(*session);
  const auto& get = got[KESTREL_EVT_GETRLIMIT];
  ASSERT_EQ(get.size(), 2u);
  EXPECT_EQ(get[0].Event().Int("res"), 0);
  EXPECT_EQ(get[0].Event().Int("resource"), RLIMIT_NOFILE);
  EXPECT_EQ(get[0].Event().Int("cur"), static_cast<int64_t>(nofile.rlim_cur));
  EXPECT_EQ(get[0].Event().Int("max"), static_cast<int64_t>(nofile.rlim_max));
  EXPECT_EQ(get[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(get[1].Event().Int("resource"), 9999);
  EXPECT_EQ(get[1].Event().Int("cur"), -1);
  EXPECT_EQ(get[1].Event().Int("max"), -1);

  const auto& set = got[KESTREL_EVT_SETRLIMIT];
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(set[0].Event().Int("res"), 0);
  EXPECT_EQ(set[0].Event().Int("resource"), RLIMIT_NOFILE);
  EXPECT_EQ(set[0].Event().Int("cur"), static_cast<int64_t>(nofile.rlim_cur));
  EXPECT_EQ(set[0].Event().Int("max"), static_cast<int64_t>(nofile.rlim_max));
  EXPECT_EQ(set[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(set[1].Event().Int("cur"), 200);
  EXPECT_EQ(set[1].Event().Int("max"), 100);

  const auto& pr = got[KESTREL_EVT_PRLIMIT64];
  ASSERT_EQ(pr.size(), 2u);
  EXPECT_EQ(pr[0].Event().Int("res"), 0);
  EXPECT_EQ(pr[0].Event().Int("pid"), getpid());
  EXPECT_EQ(pr[0].Event().Int("resource"), RLIMIT_NOFILE);
  EXPECT_EQ(pr[0].Event().Int("newcur"), static_cast<int64_t>(nofile.rlim_cur));
  EXPECT_EQ(pr[0].Event().Int("newmax"), static_cast<int64_t>(nofile.rlim_max));
  EXPECT_EQ(pr[0].Event().Int("oldcur"), static_cast<int64_t>(old.rlim_cur));
  EXPECT_EQ(pr[0].Event().Int("oldmax"), static_cast<int64_t>(old.rlim_max));
  EXPECT_EQ(pr[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(pr[1].Event().Int("pid"), 0);
  EXPECT_EQ(pr[1].Event().Int("resource"), 9999);
  EXPECT_EQ(pr[1].Event().Int("newcur"), 0);  // no new limit given
  EXPECT_EQ(pr[1].Event().Int("newmax"), 0);
  EXPECT_EQ(pr[1].Event().Int("oldcur"), -1);
  EXPECT_EQ(pr[1].Event().Int("oldmax"), -1);
}

// The mm counters are compared between the test's own records, not with
// /proc/self/status read later: only the differences the calls themselves
// make are certain (this process is single-threaded while it runs, but the
// sizes include every earlier mapping). RSS counters are per-CPU batched,
// so only their consistency is checked.
void ExpectSaneCounters(const OwnedRecord& r) {
  const int64_t size = r.Event().Int("vm_size").value_or(0);
  const int64_t rss = r.Event().Int("vm_rss").value_or(-1);
  const int64_t swap = r.Event().Int("vm_swap").value_or(-1);
  EXPECT_GT(size, 0);
  EXPECT_EQ(size % 4, 0);  // whole 4 KiB pages
  EXPECT_GT(rss, 0);
  EXPECT_LE(rss, size);
  EXPECT_GE(swap, 0);
  EXPECT_EQ(rss % 4, 0);
  EXPECT_EQ(swap % 4, 0);
}

TEST_F(SystemEventsTest, BrkMovesTheBreakAndVmSize) {
  auto session = Start({SYS_brk});
  ASSERT_NE(session, nullptr);
  const uint64_t cur = static_cast<uint64_t>(syscall(SYS_brk, 0));
  const uint64_t grown = static_cast<uint64_t>(syscall(SYS_brk, cur + 2 * kPage));
  const uint64_t back = static_cast<uint64_t>(syscall(SYS_brk, cur));
  // brk cannot fail with -errno: a refused break returns the current one.
  const uint64_t refused = static_cast<uint64_t>(syscall(SYS_brk, 1));
  ASSERT_EQ(grown, cur + 2 * kPage);
  ASSERT_EQ(back, cur);
  ASSERT_EQ(refused, cur);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_BRK);
  ASSERT_EQ(got.size(), 4u);
  const int64_t base = static_cast<int64_t>(cur);
  EXPECT_EQ(got[0].Event().Int("res"), base);
  EXPECT_EQ(got[0].Event().Int("addr"), 0);
  EXPECT_EQ(got[1].Event().Int("res"), base + 2 * static_cast<int64_t>(kPage));
  EXPECT_EQ(got[1].Event().Int("addr"), base + 2 * static_cast<int64_t>(kPage));
  EXPECT_EQ(got[2].Event().Int("res"), base);
  EXPECT_EQ(got[2].Event().Int("addr"), base);
  EXPECT_EQ(got[3].Event().Int("res"), base);
  EXPECT_EQ(got[3].Event().Int("addr"), 1);
  for (const OwnedRecord& r : got) ExpectSaneCounters(r);
  const int64_t size0 = *got[0].Event().Int("vm_size");
  EXPECT_EQ(got[1].Event().Int("vm_size"), size0 + 8);  // two pages, in KiB
  EXPECT_EQ(got[2].Event().Int("vm_size"), size0);
  EXPECT_EQ(got[3].Event().Int("vm_size"), size0);
}

TEST_F(SystemEventsTest, MunmapShrinksVmSize) {
  void* p = mmap(nullptr, 3 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  const uint64_t addr = reinterpret_cast<uint64_t>(p);
  auto session = Start({SYS_munmap});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_munmap, addr, kPage), 0);
  ASSERT_EQ(syscall(SYS_munmap, addr + kPage, 2 * kPage), 0);
  ASSERT_EQ(syscall(SYS_munmap, addr + 1, kPage), -1);  // unaligned

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_MUNMAP);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("addr"), static_cast<int64_t>(addr));
  EXPECT_EQ(got[0].Event().Int("length"), static_cast<int64_t>(kPage));
  EXPECT_EQ(got[1].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("addr"), static_cast<int64_t>(addr + kPage));
  EXPECT_EQ(got[1].Event().Int("length"), static_cast<int64_t>(2 * kPage));
  EXPECT_EQ(got[2].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[2].Event().Int("addr"), static_cast<int64_t>(addr + 1));
  EXPECT_EQ(got[2].Event().Int("length"), static_cast<int64_t>(kPage));
  for (const OwnedRecord& r : got) ExpectSaneCounters(r);
  const int64_t size0 = *got[0].Event().Int("vm_size");
  EXPECT_EQ(got[1].Event().Int("vm_size"), size0 - 8);
  EXPECT_EQ(got[2].Event().Int("vm_size"), size0 - 8);
}

TEST_F(SystemEventsTest, MemoryLocking) {
  void* p = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  const uint64_t addr = reinterpret_cast<uint64_t>(p);
  // A page the process surely does not map: the one at address 4096.
  const uint64_t unmapped = kPage;
  auto session = Start({SYS_mlock, SYS_mlock2, SYS_mlockall, SYS_munlock, SYS_munlockall});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_mlock, addr, kPage), 0);
  ASSERT_EQ(syscall(SYS_mlock, unmapped, kPage), -1);
  ASSERT_EQ(syscall(SYS_mlock2, addr + kPage, kPage, MLOCK_ONFAULT), 0);
  ASSERT_EQ(syscall(SYS_mlock2, addr, kPage, 0x100), -1);
  ASSERT_EQ(syscall(SYS_munlock, addr, 2 * kPage), 0);
  ASSERT_EQ(syscall(SYS_munlock, unmapped, kPage), -1);
  ASSERT_EQ(syscall(SYS_mlockall, MCL_CURRENT | MCL_ONFAULT), 0);
  ASSERT_EQ(syscall(SYS_mlockall, 0), -1);
  // munlockall cannot fail.
  ASSERT_EQ(syscall(SYS_munlockall), 0);
  munmap(p, 2 * kPage);

  auto got = DrainByType(*session);
  const auto& mlock = got[KESTREL_EVT_MLOCK];
  ASSERT_EQ(mlock.size(), 2u);
  EXPECT_EQ(mlock[0].Event().Int("res"), 0);
  EXPECT_EQ(mlock[0].Event().Int("addr"), static_cast<int64_t>(addr));
  EXPECT_EQ(mlock[0].Event().Int("len"), static_cast<int64_t>(kPage));
  EXPECT_EQ(mlock[1].Event().Int("res"), -ENOMEM);
  EXPECT_EQ(mlock[1].Event().Int("addr"), static_cast<int64_t>(unmapped));
  EXPECT_EQ(mlock[1].Event().Int("len"), static_cast<int64_t>(kPage));

  const auto& mlock2 = got[KESTREL_EVT_MLOCK2];
  ASSERT_EQ(mlock2.size(), 2u);
  EXPECT_EQ(mlock2[0].Event().Int("res"), 0);
  EXPECT_EQ(mlock2[0].Event().Int("addr"), static_cast<int64_t>(addr + kPage));
  EXPECT_EQ(mlock2[0].Event().Int("len"), static_cast<int64_t>(kPage));
  EXPECT_EQ(mlock2[0].Event().Int("flags"), MLOCK_ONFAULT);
  EXPECT_EQ(mlock2[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(mlock2[1].Event().Int("addr"), static_cast<int64_t>(addr));
  EXPECT_EQ(mlock2[1].Event().Int("flags"), 0x100);

  const auto& munlock = got[KESTREL_EVT_MUNLOCK];
  ASSERT_EQ(munlock.size(), 2u);
  EXPECT_EQ(munlock[0].Event().Int("res"), 0);
  EXPECT_EQ(munlock[0].Event().Int("addr"), static_cast<int64_t>(addr));
  EXPECT_EQ(munlock[0].Event().Int("len"), static_cast<int64_t>(2 * kPage));
  EXPECT_EQ(munlock[1].Event().Int("res"), -ENOMEM);
  EXPECT_EQ(munlock[1].Event().Int("addr"), static_cast<int64_t>(unmapped));

  const auto& mlockall = got[KESTREL_EVT_MLOCKALL];
  ASSERT_EQ(mlockall.size(), 2u);
  EXPECT_EQ(mlockall[0].Event().Int("res"), 0);
  EXPECT_EQ(mlockall[0].Event().Int("flags"), MCL_CURRENT | MCL_ONFAULT);
  EXPECT_EQ(mlockall[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(mlockall[1].Event().Int("flags"), 0);

  ASSERT_EQ(got[KESTREL_EVT_MUNLOCKALL].size(), 1u);
  EXPECT_EQ(got[KESTREL_EVT_MUNLOCKALL][0].Event().Int("res"), 0);
}

TEST_F(SystemEventsTest, NanosleepInterval) {
  auto session = Start({SYS_nanosleep});
  ASSERT_NE(session, nullptr);
  const struct timespec short_sleep = {.tv_sec = 0, .tv_nsec = 1000};
  const struct timespec invalid = {.tv_sec = 1, .tv_nsec = 1000000000};
  ASSERT_EQ(syscall(SYS_nanosleep, &short_sleep, nullptr), 0);
  ASSERT_EQ(syscall(SYS_nanosleep, &invalid, nullptr), -1);
  ASSERT_EQ(syscall(SYS_nanosleep, nullptr, nullptr), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_NANOSLEEP);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("interval"), 1000);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("interval"), 2000000000);  // as asked, though invalid
  EXPECT_EQ(got[2].Event().Int("res"), -EFAULT);
  EXPECT_EQ(got[2].Event().Int("interval"), 0);
}

TEST_F(SystemEventsTest, FutexWakeAndRefusedWait) {
  uint32_t word = 7;
  const int64_t addr = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&word));
  auto session = Start({SYS_futex});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_futex, &word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, nullptr, nullptr, 0), 0);
  // The word is not 8: the wait is refused at once.
  ASSERT_EQ(syscall(SYS_futex, &word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 8, nullptr, nullptr, 0), -1);

  std::vector<OwnedRecord> got;
  for (OwnedRecord& r : Drain(*session, KESTREL_EVT_FUTEX)) {
    if (r.Event().Int("addr") == addr) got.push_back(std::move(r));
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("op"), FUTEX_WAKE | FUTEX_PRIVATE_FLAG);
  EXPECT_EQ(got[0].Event().Int("val"), 1);
  EXPECT_EQ(got[1].Event().Int("res"), -EAGAIN);
  EXPECT_EQ(got[1].Event().Int("op"), FUTEX_WAIT | FUTEX_PRIVATE_FLAG);
  EXPECT_EQ(got[1].Event().Int("val"), 8);
}

TEST_F(SystemEventsTest, KeyctlGetKeyringIdAndUnknownOperation) {
  auto session = Start({SYS_keyctl});
  ASSERT_NE(session, nullptr);
  const long id =
      syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, long{KEY_SPEC_PROCESS_KEYRING}, 1L, 0L, 0L);
  ASSERT_GT(id, 0) << strerror(errno);
  ASSERT_EQ(syscall(SYS_keyctl, 9999, 1, 2, 3, 4), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_KEYCTL);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), id);
  EXPECT_EQ(got[0].Event().Int("operation"), KEYCTL_GET_KEYRING_ID);
  EXPECT_EQ(got[0].Event().Int("arg2"), KEY_SPEC_PROCESS_KEYRING);
  EXPECT_EQ(got[0].Event().Int("arg3"), 1);
  EXPECT_EQ(got[0].Event().Int("arg4"), 0);
  EXPECT_EQ(got[0].Event().Int("arg5"), 0);
  EXPECT_EQ(got[1].Event().Int("res"), -EOPNOTSUPP);
  EXPECT_EQ(got[1].Event().Int("operation"), 9999);
  EXPECT_EQ(got[1].Event().Int("arg2"), 1);
  EXPECT_EQ(got[1].Event().Int("arg3"), 2);
  EXPECT_EQ(got[1].Event().Int("arg4"), 3);
  EXPECT_EQ(got[1].Event().Int("arg5"), 4);
}

TEST_F(SystemEventsTest, SemaphoreGetOpAndCtl) {
  auto session = Start({SYS_semget, SYS_semop, SYS_semctl});
  ASSERT_NE(session, nullptr);
  const int id = static_cast<int>(syscall(SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | 0600));
  ASSERT_GE(id, 0);
  ASSERT_EQ(syscall(SYS_semget, IPC_PRIVATE, -1, IPC_CREAT | 0600), -1);
  struct sembuf ops[3] = {{0, 3, 0}, {1, 2, IPC_NOWAIT | SEM_UNDO}, {0, -1, 0}};
  ASSERT_EQ(syscall(SYS_semop, id, ops, 3), 0);
  struct sembuf take = {1, -5, IPC_NOWAIT};  // only 2 there: would block
  ASSERT_EQ(syscall(SYS_semop, id, &take, 1), -1);
  ASSERT_EQ(syscall(SYS_semctl, id, 1, SETVAL, 5L), 0);
  ASSERT_EQ(syscall(SYS_semctl, id, 0, GETVAL, 0L), 2);
  ASSERT_EQ(syscall(SYS_semctl, id, 0, IPC_RMID, 0L), 0);
  ASSERT_EQ(syscall(SYS_semctl, id, 0, IPC_RMID, 0L), -1);

  auto got = DrainByType(*session);
  const auto& semget = got[KESTREL_EVT_SEMGET];
  ASSERT_EQ(semget.size(), 2u);
  EXPECT_EQ(semget[0].Event().Int("res"), id);
  EXPECT_EQ(semget[0].Event().Int("key"), IPC_PRIVATE);
  EXPECT_EQ(semget[0].Event().Int("nsems"), 2);
  EXPECT_EQ(semget[0].Event().Int("semflg"), IPC_CREAT | 0600);
  EXPECT_EQ(semget[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(semget[1].Event().Int("nsems"), -1);

  const auto& semop = got[KESTREL_EVT_SEMOP];
  ASSERT_EQ(semop.size(), 2u);
  EXPECT_EQ(semop[0].Event().Int("res"), 0);
  EXPECT_EQ(semop[0].Event().Int("semid"), id);
  EXPECT_EQ(semop[0].Event().Int("nsops"), 3);
  EXPECT_EQ(semop[0].Event().Int("sem_num_0"), 0);
  EXPECT_EQ(semop[0].Event().Int("sem_op_0"), 3);
  EXPECT_EQ(semop[0].Event().Int("sem_flg_0"), 0);
  EXPECT_EQ(semop[0].Event().Int("sem_num_1"), 1);
  EXPECT_EQ(semop[0].Event().Int("sem_op_1"), 2);
  EXPECT_EQ(semop[0].Event().Int("sem_flg_1"), IPC_NOWAIT | SEM_UNDO);
  // A failed call carries no entries (Falco's convention).
  EXPECT_EQ(semop[1].Event().Int("res"), -EAGAIN);
  EXPECT_EQ(semop[1].Event().Int("semid"), id);
  EXPECT_EQ(semop[1].Event().Int("nsops"), 1);
  for (const char* name :
       {"sem_num_0", "sem_op_0", "sem_flg_0", "sem_num_1", "sem_op_1", "sem_flg_1"}) {
    EXPECT_EQ(semop[1].Event().Int(name), 0) << name;
  }

  const auto& semctl = got[KESTREL_EVT_SEMCTL];
  ASSERT_EQ(semctl.size(), 4u);
  EXPECT_EQ(semctl[0].Event().Int("res"), 0);
  EXPECT_EQ(semctl[0].Event().Int("semid"), id);
  EXPECT_EQ(semctl[0].Event().Int("semnum"), 1);
  EXPECT_EQ(semctl[0].Event().Int("cmd"), SETVAL);
  EXPECT_EQ(semctl[0].Event().Int("val"), 5);
  EXPECT_EQ(semctl[1].Event().Int("res"), 2);
  EXPECT_EQ(semctl[1].Event().Int("cmd"), GETVAL);
  EXPECT_EQ(semctl[1].Event().Int("val"), 0);
  EXPECT_EQ(semctl[2].Event().Int("res"), 0);
  EXPECT_EQ(semctl[2].Event().Int("cmd"), IPC_RMID);
  EXPECT_EQ(semctl[3].Event().Int("res"), -EINVAL);
  EXPECT_EQ(semctl[3].Event().Int("semid"), id);
  EXPECT_EQ(semctl[3].Event().Int("semnum"), 0);
  EXPECT_EQ(semctl[3].Event().Int("cmd"), IPC_RMID);
  EXPECT_EQ(semctl[3].Event().Int("val"), 0);
}

TEST_F(SystemEventsTest, IoUringEnterAndRegister) {
  struct io_uring_params params {};
  const int ring = static_cast<int>(syscall(SYS_io_uring_setup, 4, &params));
  ASSERT_GE(ring, 0) << strerror(errno);
  auto session = Start({SYS_io_uring_enter, SYS_io_uring_register});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_io_uring_enter, ring, 0, 0, IORING_ENTER_GETEVENTS, nullptr, 0), 0);
  ASSERT_EQ(syscall(SYS_io_uring_enter, -1, 1, 2, 0, nullptr, 8), -1);
  const long personality =
      syscall(SYS_io_uring_register, ring, IORING_REGISTER_PERSONALITY, nullptr, 0);
  ASSERT_GT(personality, 0) << strerror(errno);
  ASSERT_EQ(syscall(SYS_io_uring_register, ring, 9999, nullptr, 3), -1);
  close(ring);

  auto got = DrainByType(*session);
  const auto& enter = got[KESTREL_EVT_IO_URING_ENTER];
  ASSERT_EQ(enter.size(), 2u);
  EXPECT_EQ(enter[0].Event().Int("res"), 0);
  EXPECT_EQ(enter[0].Event().Int("fd"), ring);
  EXPECT_EQ(enter[0].Event().Int("to_submit"), 0);
  EXPECT_EQ(enter[0].Event().Int("min_complete"), 0);
  EXPECT_EQ(enter[0].Event().Int("flags"), IORING_ENTER_GETEVENTS);
  EXPECT_EQ(enter[0].Event().Int("sig"), 0);
  EXPECT_EQ(enter[0].Event().Int("argsz"), 0);
  EXPECT_EQ(enter[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(enter[1].Event().Int("fd"), -1);
  EXPECT_EQ(enter[1].Event().Int("to_submit"), 1);
  EXPECT_EQ(enter[1].Event().Int("min_complete"), 2);
  EXPECT_EQ(enter[1].Event().Int("flags"), 0);
  EXPECT_EQ(enter[1].Event().Int("sig"), 0);
  EXPECT_EQ(enter[1].Event().Int("argsz"), 8);

  const auto& reg = got[KESTREL_EVT_IO_URING_REGISTER];
  ASSERT_EQ(reg.size(), 2u);
  EXPECT_EQ(reg[0].Event().Int("res"), personality);
  EXPECT_EQ(reg[0].Event().Int("fd"), ring);
  EXPECT_EQ(reg[0].Event().Int("opcode"), IORING_REGISTER_PERSONALITY);
  EXPECT_EQ(reg[0].Event().Int("arg"), 0);
  EXPECT_EQ(reg[0].Event().Int("nr_args"), 0);
  EXPECT_EQ(reg[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(reg[1].Event().Int("opcode"), 9999);
  EXPECT_EQ(reg[1].Event().Int("nr_args"), 3);
}

TEST_F(SystemEventsTest, ProcessVmReadvAndWritev) {
  char source[] = "kestrel-vm-data!";  // 16 bytes and a NUL
  char local[16] = {};
  char target[18] = {};
  char written[] = "written-by-writev";  // 17 bytes and a NUL
  auto session = Start({SYS_process_vm_readv, SYS_process_vm_writev}, {.capture_io_data = true});
  ASSERT_NE(session, nullptr);
  const pid_t self = getpid();
  struct iovec local_read = {local, sizeof(local)};
  struct iovec remote_read = {source, 16};
  ASSERT_EQ(syscall(SYS_process_vm_readv, self, &local_read, 1, &remote_read, 1, 0), 16);
  struct iovec local_write = {written, 17};
  struct iovec remote_write = {target, sizeof(target)};
  ASSERT_EQ(syscall(SYS_process_vm_writev, self, &local_write, 1, &remote_write, 1, 0), 17);
  ASSERT_EQ(std::string(target, 17), "written-by-writev");
  // No process has pid -1 as a target: ESRCH.
  ASSERT_EQ(syscall(SYS_process_vm_readv, -1, &local_read, 1, &remote_read, 1, 0), -1);
  ASSERT_EQ(syscall(SYS_process_vm_writev, self, &local_write, 1, &remote_write, 1, 1), -1);

  auto got = DrainByType(*session);
  const auto& readv = got[KESTREL_EVT_PROCESS_VM_READV];
  ASSERT_EQ(readv.size(), 2u);
  EXPECT_EQ(readv[0].Event().Int("res"), 16);
  EXPECT_EQ(readv[0].Event().Int("pid"), self);
  EXPECT_EQ(readv[0].Event().Int("size"), 16);
  EXPECT_EQ(readv[0].Event().String("data"), "kestrel-vm-data!");
  EXPECT_EQ(readv[1].Event().Int("res"), -ESRCH);
  EXPECT_EQ(readv[1].Event().Int("pid"), -1);
  EXPECT_EQ(readv[1].Event().Int("size"), 16);
  EXPECT_EQ(readv[1].Event().String("data"), "");

  const auto& writev = got[KESTREL_EVT_PROCESS_VM_WRITEV];
  ASSERT_EQ(writev.size(), 2u);
  EXPECT_EQ(writev[0].Event().Int("res"), 17);
  EXPECT_EQ(writev[0].Event().Int("pid"), self);
  EXPECT_EQ(writev[0].Event().Int("size"), 17);
  EXPECT_EQ(writev[0].Event().String("data"), "written-by-writev");
  EXPECT_EQ(writev[1].Event().Int("res"), -EINVAL);  // flags must be 0
  EXPECT_EQ(writev[1].Event().Int("pid"), self);
  EXPECT_EQ(writev[1].Event().Int("size"), 17);
  EXPECT_EQ(writev[1].Event().String("data"), "");
}

}  // namespace
}  // namespace kestrel::testing
