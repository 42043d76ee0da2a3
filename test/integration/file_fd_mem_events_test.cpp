// File events on descriptors, mounts and memory: dup*, fcntl, mount,
// umount2, memfd_create, mmap, mprotect.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

struct MemoryUse {
  int64_t size_kb = -1;
  int64_t swap_kb = -1;
};

// VmSize and VmSwap of /proc/self/status, read with no allocation so that
// reading cannot itself grow the heap and move the numbers.
MemoryUse ReadMemoryUse() {
  static char buf[8192];
  MemoryUse use;
  const int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return use;
  const ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0) return use;
  buf[n] = '\0';
  if (const char* p = strstr(buf, "VmSize:")) use.size_kb = strtoll(p + 7, nullptr, 10);
  if (const char* p = strstr(buf, "VmSwap:")) use.swap_kb = strtoll(p + 7, nullptr, 10);
  return use;
}

// vm_size is a u32 of KiB, as Falco's: it wraps past 4 TiB of address
// space, which a process under AddressSanitizer (its shadow) has.
int64_t KibAsUint32(int64_t kib) { return static_cast<uint32_t>(kib); }

TEST_F(FileEventsTest, DupFamilySuccessAndFailure) {
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_dup, SYS_dup2, SYS_dup3});
  ASSERT_NE(session, nullptr);
  const int d1 = static_cast<int>(syscall(SYS_dup, fd));
  ASSERT_GE(d1, 0);
  ASSERT_EQ(syscall(SYS_dup, -1), -1);
  ASSERT_EQ(syscall(SYS_dup2, fd, 900), 900);
  ASSERT_EQ(syscall(SYS_dup2, -1, 901), -1);
  ASSERT_EQ(syscall(SYS_dup3, fd, 902, O_CLOEXEC), 902);
  ASSERT_EQ(syscall(SYS_dup3, fd, fd, O_CLOEXEC), -1);
  close(d1);
  close(900);
  close(902);
  close(fd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& dups = got[KESTREL_EVT_DUP];
  const std::vector<OwnedRecord>& dup2s = got[KESTREL_EVT_DUP2];
  const std::vector<OwnedRecord>& dup3s = got[KESTREL_EVT_DUP3];
  ASSERT_EQ(dups.size(), 2u);
  ASSERT_EQ(dup2s.size(), 2u);
  ASSERT_EQ(dup3s.size(), 2u);
  EXPECT_EQ(dups[0].Event().Int("res"), d1);
  EXPECT_EQ(dups[0].Event().Int("oldfd"), fd);
  EXPECT_EQ(dups[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(dups[1].Event().Int("oldfd"), -1);
  EXPECT_EQ(dup2s[0].Event().Int("res"), 900);
  EXPECT_EQ(dup2s[0].Event().Int("oldfd"), fd);
  EXPECT_EQ(dup2s[0].Event().Int("newfd"), 900);
  EXPECT_EQ(dup2s[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(dup2s[1].Event().Int("oldfd"), -1);
  EXPECT_EQ(dup2s[1].Event().Int("newfd"), 901);
  EXPECT_EQ(dup3s[0].Event().Int("res"), 902);
  EXPECT_EQ(dup3s[0].Event().Int("oldfd"), fd);
  EXPECT_EQ(dup3s[0].Event().Int("newfd"), 902);
  EXPECT_EQ(dup3s[0].Event().Int("flags"), O_CLOEXEC);
  EXPECT_EQ(dup3s[1].Event().Int("res"), -EINVAL);  // oldfd == newfd
  EXPECT_EQ(dup3s[1].Event().Int("newfd"), fd);
  EXPECT_EQ(dup3s[1].Event().Int("flags"), O_CLOEXEC);
}

TEST_F(FileEventsTest, FcntlSuccessAndFailure) {
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_fcntl});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_fcntl, fd, F_GETFD, 0L), FD_CLOEXEC);
  const int dup = static_cast<int>(syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 700L));
  ASSERT_GE(dup, 700);
  ASSERT_EQ(syscall(SYS_fcntl, -1, F_SETFL, long{O_NONBLOCK}), -1);
  close(dup);
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_FCNTL);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), FD_CLOEXEC);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("cmd"), F_GETFD);
  EXPECT_EQ(got[0].Event().Int("arg"), 0);
  EXPECT_EQ(got[1].Event().Int("res"), dup);
  EXPECT_EQ(got[1].Event().Int("cmd"), F_DUPFD_CLOEXEC);
  EXPECT_EQ(got[1].Event().Int("arg"), 700);
  EXPECT_EQ(got[2].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[2].Event().Int("fd"), -1);
  EXPECT_EQ(got[2].Event().Int("cmd"), F_SETFL);
  EXPECT_EQ(got[2].Event().Int("arg"), O_NONBLOCK);
}

// Mounts and unmounts a tmpfs in a private mount namespace of a child, so
// nothing outside the test sees it. Exit status: 0, or the step that failed.
int MountInPrivateNamespace(const char* where) {
  if (unshare(CLONE_NEWNS) != 0) return 1;
  if (syscall(SYS_mount, nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 2;
  if (syscall(SYS_mount, "kestrel", where, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700") != 0)
    return 3;
  if (syscall(SYS_mount, "kestrel", where, "kestrel-nofs", 0, nullptr) != -1 || errno != ENODEV)
    return 4;
  if (syscall(SYS_umount2, where, MNT_DETACH) != 0) return 5;
  if (syscall(SYS_umount2, where, 0) != -1 || errno != EINVAL) return 6;
  return 0;
}

TEST_F(FileEventsTest, MountAndUmount2InAPrivateNamespace) {
  const std::string where = dir_.path();
  // The child is another process: trace every process, keep the child's.
  auto session = Start({SYS_mount, SYS_umount2}, {.trace_only_this_process = false});
  ASSERT_NE(session, nullptr);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(MountInPrivateNamespace(where.c_str()));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);

  auto got = DrainByType(*session, static_cast<uint32_t>(child));
  const std::vector<OwnedRecord>& mounts = got[KESTREL_EVT_MOUNT];
  const std::vector<OwnedRecord>& umounts = got[KESTREL_EVT_UMOUNT2];
  ASSERT_EQ(mounts.size(), 3u);
  ASSERT_EQ(umounts.size(), 2u);
  const engine::DecodedEvent rprivate = mounts[0].Event();
  EXPECT_EQ(rprivate.Int("res"), 0);
  EXPECT_EQ(rprivate.String("dev"), "");
  EXPECT_EQ(rprivate.String("dir"), "/");
  EXPECT_EQ(rprivate.String("type"), "");
  EXPECT_EQ(rprivate.Int("flags"), MS_REC | MS_PRIVATE);
  EXPECT_EQ(rprivate.String("data"), "");
  const engine::DecodedEvent tmpfs = mounts[1].Event();
  EXPECT_EQ(tmpfs.Int("res"), 0);
  EXPECT_EQ(tmpfs.String("dev"), "kestrel");
  EXPECT_EQ(tmpfs.String("dir"), where);
  EXPECT_EQ(tmpfs.String("type"), "tmpfs");
  EXPECT_EQ(tmpfs.Int("flags"), MS_NOSUID | MS_NODEV);
  EXPECT_EQ(tmpfs.String("data"), "size=1m,mode=0700");
  const engine::DecodedEvent nofs = mounts[2].Event();
  EXPECT_EQ(nofs.Int("res"), -ENODEV);
  EXPECT_EQ(nofs.String("dev"), "kestrel");
  EXPECT_EQ(nofs.String("dir"), where);
  EXPECT_EQ(nofs.String("type"), "kestrel-nofs");
  EXPECT_EQ(nofs.Int("flags"), 0);
  EXPECT_EQ(nofs.String("data"), "");
  EXPECT_EQ(umounts[0].Event().Int("res"), 0);
  EXPECT_EQ(umounts[0].Event().String("name"), where);
  EXPECT_EQ(umounts[0].Event().Int("flags"), MNT_DETACH);
  EXPECT_EQ(umounts[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(umounts[1].Event().String("name"), where);
  EXPECT_EQ(umounts[1].Event().Int("flags"), 0);
}

TEST_F(FileEventsTest, MemfdCreateSuccessAndFailure) {
  auto session = Start({SYS_memfd_create});
  ASSERT_NE(session, nullptr);
  const int fd =
      static_cast<int>(syscall(SYS_memfd_create, "kestrel-memfd", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(syscall(SYS_memfd_create, "kestrel-bad", 0x1000), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_MEMFD_CREATE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().String("name"), "kestrel-memfd");
  EXPECT_EQ(got[0].Event().Int("flags"), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  EXPECT_EQ(got[1].Event().Int("fd"), -EINVAL);
  EXPECT_EQ(got[1].Event().String("name"), "kestrel-bad");
  EXPECT_EQ(got[1].Event().Int("flags"), 0x1000);
}

TEST_F(FileEventsTest, MmapAndMprotectSuccessAndFailure) {
  // An unusual length tells the test's mappings from any the C library or
  // the test framework may make on this thread meanwhile.
  constexpr size_t kLen = 7 * 4096;
  auto session = Start({SYS_mmap, SYS_mprotect});
  ASSERT_NE(session, nullptr);
  const long addr = syscall(SYS_mmap, nullptr, kLen, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, off_t{0});
  ASSERT_NE(addr, -1);
  const MemoryUse after_map = ReadMemoryUse();
  ASSERT_EQ(syscall(SYS_mmap, nullptr, kLen, PROT_READ, MAP_SHARED, -1, off_t{4096}), -1);
  ASSERT_EQ(syscall(SYS_mprotect, addr, kLen, PROT_READ | PROT_EXEC), 0);
  ASSERT_EQ(syscall(SYS_mprotect, addr + 1, kLen, PROT_NONE), -1);
  munmap(reinterpret_cast<void*>(addr), kLen);

  auto got = DrainByType(*session);
  std::vector<engine::DecodedEvent> maps;
  for (const OwnedRecord& r : got[KESTREL_EVT_MMAP]) {
    if (r.Event().Int("length") == static_cast<int64_t>(kLen)) maps.push_back(r.Event());
  }
  std::vector<engine::DecodedEvent> prots;
  for (const OwnedRecord& r : got[KESTREL_EVT_MPROTECT]) {
    if (r.Event().Int("length") == static_cast<int64_t>(kLen)) prots.push_back(r.Event());
  }
  ASSERT_EQ(maps.size(), 2u);
  ASSERT_EQ(prots.size(), 2u);
  EXPECT_EQ(maps[0].Int("res"), addr);
  EXPECT_EQ(maps[0].Int("addr"), 0);
  EXPECT_EQ(maps[0].Int("prot"), PROT_READ | PROT_WRITE);
  EXPECT_EQ(maps[0].Int("flags"), MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
  EXPECT_EQ(maps[0].Int("fd"), -1);
  EXPECT_EQ(maps[0].Int("offset"), 0);
  // The memory use once mapped, in KiB, as /proc/self/status shows it: the
  // size exactly, the resident set being the kernel's approximate counter.
  EXPECT_EQ(maps[0].Int("vm_size"), KibAsUint32(after_map.size_kb));
  EXPECT_GT(maps[0].Int("vm_rss"), 0);
  EXPECT_LE(maps[0].Int("vm_rss"), maps[0].Int("vm_size"));
  EXPECT_EQ(maps[0].Int("vm_swap"), after_map.swap_kb);
  EXPECT_EQ(maps[1].Int("res"), -EBADF);  // a shared mapping needs a file
  EXPECT_EQ(maps[1].Int("prot"), PROT_READ);
  EXPECT_EQ(maps[1].Int("flags"), MAP_SHARED);
  EXPECT_EQ(maps[1].Int("fd"), -1);
  EXPECT_EQ(maps[1].Int("offset"), 4096);
  EXPECT_EQ(maps[1].Int("vm_size"), KibAsUint32(after_map.size_kb));  // nothing mapped
  EXPECT_EQ(prots[0].Int("res"), 0);
  EXPECT_EQ(prots[0].Int("addr"), addr);
  EXPECT_EQ(prots[0].Int("prot"), PROT_READ | PROT_EXEC);
  EXPECT_EQ(prots[1].Int("res"), -EINVAL);
  EXPECT_EQ(prots[1].Int("addr"), addr + 1);
  EXPECT_EQ(prots[1].Int("prot"), PROT_NONE);
}

}  // namespace
}  // namespace kestrel::testing
