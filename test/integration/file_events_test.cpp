// File events, open family and close: each syscall made with known
// arguments, success and failure, every decoded parameter checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/openat2.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

TEST_F(FileEventsTest, OpenatReportsTheResolvedPathDeviceAndInode) {
  const std::string path = dir_.Touch("target");
  const struct stat st = Stat(path);
  ASSERT_EQ(chdir(dir_.path().c_str()), 0);
  auto session = Start({SYS_openat});
  ASSERT_NE(session, nullptr);

  // A relative name: the record still carries the absolute path.
  const int fd = openat(AT_FDCWD, "target", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(chdir("/"), 0);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_OPENAT);
  EXPECT_EQ(e.Int("fd"), fd);
  EXPECT_EQ(e.Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(e.String("name"), "target");  // as the caller passed it
  EXPECT_EQ(e.Int("flags"), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(e.Int("mode"), 0);
  EXPECT_EQ(e.String("path"), path);
  EXPECT_EQ(e.Int("ino"), static_cast<int64_t>(st.st_ino));
  EXPECT_EQ(e.Int("dev"), KernelDev(st.st_dev));
  EXPECT_EQ(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

// /proc is a mount of its own: the path walk crosses from its root to its
// mount point, and /proc/self resolves to this process's directory.
TEST_F(FileEventsTest, OpenatPathCrossesAMountPoint) {
  auto session = Start({SYS_openat});
  ASSERT_NE(session, nullptr);
  const int fd = openat(AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  close(fd);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().String("name"), "/proc/self/status");
  EXPECT_EQ(got[0].Event().String("path"), "/proc/" + std::to_string(getpid()) + "/status");
  EXPECT_EQ(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

// A chain of directories under `top`, made and removed through directory
// fds, so that it may be deeper or longer than PATH_MAX allows a name.
class NestedDirs {
 public:
  NestedDirs(const std::string& top, const std::vector<std::string>& names) {
    fds_.push_back(open(top.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    for (const std::string& name : names) {
      if (mkdirat(fds_.back(), name.c_str(), 0700) != 0) break;
      names_.push_back(name);
      fds_.push_back(openat(fds_.back(), name.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    }
  }
  ~NestedDirs() {
    unlinkat(fds_.back(), "f", 0);
    for (size_t i = names_.size(); i > 0; --i) {
      close(fds_[i]);
      unlinkat(fds_[i - 1], names_[i - 1].c_str(), AT_REMOVEDIR);
    }
    close(fds_[0]);
  }
  bool complete(size_t want) const { return names_.size() == want && fds_.back() >= 0; }
  int deepest() const { return fds_.back(); }

 private:
  std::vector<std::string> names_;
  std::vector<int> fds_;
};

// Paths the walk cannot keep whole: a file "f" at the bottom of a chain of
// directories, opened by name from the deepest one.
class LongPathTest : public FileEventsTest {
 protected:
  // The records of opening "f" below `names`; empty when the chain or the
  // probe could not be made.
  std::vector<OwnedRecord> OpenAtTheBottom(const std::vector<std::string>& names) {
    const NestedDirs dirs(dir_.path(), names);
    EXPECT_TRUE(dirs.complete(names.size()));
    auto session = Start({SYS_openat});
    if (!dirs.complete(names.size()) || session == nullptr) return {};
    const int fd = openat(dirs.deepest(), "f", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    close(fd);
    return session->DrainRecords(CurrentTid());
  }
};

// Deeper than the walk's 48 steps: the path keeps the last 48 components
// and says it is truncated.
TEST_F(LongPathTest, DeeperThanTheWalkKeepsItsLastComponents) {
  const std::vector<OwnedRecord> got = OpenAtTheBottom(std::vector<std::string>(60, "d"));
  ASSERT_EQ(got.size(), 1u);
  std::string want;
  for (int i = 0; i < 47; ++i) want += "/d";
  EXPECT_EQ(got[0].Event().String("name"), "f");
  EXPECT_EQ(got[0].Event().String("path"), want + "/f");
  EXPECT_NE(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

// Longer than KESTREL_MAX_PATH: the path keeps the last components that
// fit, whole, and says it is truncated.
TEST_F(LongPathTest, LongerThanTheMaximumKeepsItsLastComponents) {
  std::vector<std::string> names;
  for (int i = 0; i < 25; ++i) names.emplace_back(200, static_cast<char>('a' + i));
  const std::vector<OwnedRecord> got = OpenAtTheBottom(names);
  ASSERT_EQ(got.size(), 1u);
  // "/f" and 20 components of 201 bytes fit 4095 bytes and the NUL.
  std::string want;
  for (size_t i = names.size() - 20; i < names.size(); ++i) want += "/" + names[i];
  EXPECT_EQ(got[0].Event().String("path"), want + "/f");
  EXPECT_NE(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

// Component names around the sizes the walk copies as words (up to 16
// bytes, kept in the dentry up to 39), each next to names of other sizes:
// a short name's copy must leave the components after it whole.
TEST_F(LongPathTest, NamesOfEverySizeAroundTheWordsKeepTheirNeighbours) {
  std::vector<std::string> names;
  char fill = 'a';
  for (size_t size : {1, 7, 8, 9, 15, 16, 17, 39, 40, 16, 8, 1}) names.emplace_back(size, fill++);
  const std::vector<OwnedRecord> got = OpenAtTheBottom(names);
  ASSERT_EQ(got.size(), 1u);
  std::string want = dir_.path();
  for (const std::string& name : names) want += "/" + name;
  EXPECT_EQ(got[0].Event().String("path"), want + "/f");
  EXPECT_EQ(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

TEST_F(FileEventsTest, FailedOpenatKeepsTheRequestedName) {
  auto session = Start({SYS_openat});
  ASSERT_NE(session, nullptr);
  const std::string missing = dir_.path() + "/missing";
  ASSERT_EQ(openat(AT_FDCWD, missing.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_DIRECTORY, 0640), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("fd"), -err);
  EXPECT_EQ(e.Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(e.String("name"), missing);
  EXPECT_EQ(e.Int("flags"), O_WRONLY | O_CREAT | O_EXCL | O_DIRECTORY);
  EXPECT_EQ(e.Int("mode"), 0640);
  EXPECT_EQ(e.String("path"), missing);
  EXPECT_EQ(e.Int("dev"), 0);
  EXPECT_EQ(e.Int("ino"), 0);
}

TEST_F(FileEventsTest, OpenSuccessAndFailure) {
  const std::string path = dir_.Touch("target");
  const std::string missing = dir_.path() + "/missing";
  const struct stat st = Stat(path);
  auto session = Start({SYS_open});
  ASSERT_NE(session, nullptr);
  const int fd =
      static_cast<int>(syscall(SYS_open, path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC, 0));
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(syscall(SYS_open, missing.c_str(), O_RDONLY, 0), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_OPEN);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("fd"), fd);
  EXPECT_EQ(ok.String("name"), path);
  EXPECT_EQ(ok.Int("flags"), O_RDWR | O_APPEND | O_CLOEXEC);
  EXPECT_EQ(ok.Int("mode"), 0);
  EXPECT_EQ(ok.String("path"), path);
  EXPECT_EQ(ok.Int("dev"), KernelDev(st.st_dev));
  EXPECT_EQ(ok.Int("ino"), static_cast<int64_t>(st.st_ino));
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("fd"), -ENOENT);
  EXPECT_EQ(bad.String("name"), missing);
  EXPECT_EQ(bad.Int("flags"), O_RDONLY);
  EXPECT_EQ(bad.Int("mode"), 0);
  EXPECT_EQ(bad.String("path"), missing);
  EXPECT_EQ(bad.Int("dev"), 0);
  EXPECT_EQ(bad.Int("ino"), 0);
}

TEST_F(FileEventsTest, CreatSuccessAndFailure) {
  const std::string path = dir_.path() + "/created";
  const std::string orphan = dir_.path() + "/no-such-dir/created";
  auto session = Start({SYS_creat});
  ASSERT_NE(session, nullptr);
  const int fd = static_cast<int>(syscall(SYS_creat, path.c_str(), 0640));
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(syscall(SYS_creat, orphan.c_str(), 0600), -1);
  const struct stat st = Stat(path);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_CREAT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("fd"), fd);
  EXPECT_EQ(ok.String("name"), path);
  EXPECT_EQ(ok.Int("mode"), 0640);
  EXPECT_EQ(ok.String("path"), path);
  EXPECT_EQ(ok.Int("dev"), KernelDev(st.st_dev));
  EXPECT_EQ(ok.Int("ino"), static_cast<int64_t>(st.st_ino));
  EXPECT_EQ(ok.Int("creat_flags"), 0);  // not on an overlay
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("fd"), -ENOENT);
  EXPECT_EQ(bad.String("name"), orphan);
  EXPECT_EQ(bad.Int("mode"), 0600);
  EXPECT_EQ(bad.String("path"), orphan);
  EXPECT_EQ(bad.Int("dev"), 0);
  EXPECT_EQ(bad.Int("ino"), 0);
  EXPECT_EQ(bad.Int("creat_flags"), 0);
}

// Creates a file on an overlay mounted in a private mount namespace of a
// child (nothing outside the test sees it). Exit status: 0, or the failed
// step.
int CreatOnAnOverlay(const std::string& base) {
  const std::string lower = base + "/lower", upper = base + "/upper", work = base + "/work",
                    merged = base + "/merged";
  for (const std::string& d : {lower, upper, work, merged}) {
    if (mkdir(d.c_str(), 0700) != 0) return 1;
  }
  if (unshare(CLONE_NEWNS) != 0) return 2;
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 3;
  const std::string options = "lowerdir=" + lower + ",upperdir=" + upper + ",workdir=" + work;
  if (mount("overlay", merged.c_str(), "overlay", 0, options.c_str()) != 0) return 4;
  const int fd = static_cast<int>(syscall(SYS_creat, (merged + "/new").c_str(), 0600));
  if (fd < 0) return 5;
  close(fd);
  if (umount2(merged.c_str(), MNT_DETACH) != 0) return 6;
  return 0;
}

// A file created on an overlay lands on its upper (the container's) layer.
TEST_F(FileEventsTest, CreatOnAnOverlaySaysUpperLayer) {
  const std::string base = dir_.path();
  auto session = Start({SYS_creat}, {.trace_only_this_process = false});
  ASSERT_NE(session, nullptr);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(CreatOnAnOverlay(base));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);

  const std::vector<OwnedRecord> got =
      Drain(*session, KESTREL_EVT_CREAT, static_cast<uint32_t>(child));
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_GE(e.Int("fd"), 0);
  EXPECT_EQ(e.String("name"), base + "/merged/new");
  EXPECT_EQ(e.String("path"), base + "/merged/new");
  EXPECT_EQ(e.Int("creat_flags"), 1);  // FD_UPPER_LAYER_CREAT
}

TEST_F(FileEventsTest, Openat2ReadsOpenHowAndTheOpenedFile) {
  const std::string path = dir_.Touch("target");
  const std::string link = dir_.path() + "/link";
  ASSERT_EQ(symlink(path.c_str(), link.c_str()), 0);
  const struct stat st = Stat(path);
  const int dirfd = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd, 0);
  auto session = Start({SYS_openat2});
  ASSERT_NE(session, nullptr);

  open_how how{};
  how.flags = O_RDONLY | O_CLOEXEC;
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH;
  const int fd = static_cast<int>(syscall(SYS_openat2, dirfd, "target", &how, sizeof(how)));
  ASSERT_GE(fd, 0);
  close(fd);
  // The symlink is refused by RESOLVE_NO_SYMLINKS.
  ASSERT_EQ(syscall(SYS_openat2, dirfd, "link", &how, sizeof(how)), -1);
  // A size below the first open_how version: nothing of it is read.
  ASSERT_EQ(syscall(SYS_openat2, dirfd, "target", &how, 8), -1);
  close(dirfd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_OPENAT2);
  ASSERT_EQ(got.size(), 3u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("fd"), fd);
  EXPECT_EQ(ok.Int("dirfd"), dirfd);
  EXPECT_EQ(ok.String("name"), "target");
  EXPECT_EQ(ok.Int("size"), static_cast<int64_t>(sizeof(how)));
  EXPECT_EQ(ok.Int("flags"), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(ok.Int("mode"), 0);
  EXPECT_EQ(ok.Int("resolve"), RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
  EXPECT_EQ(ok.String("path"), path);
  EXPECT_EQ(ok.Int("dev"), KernelDev(st.st_dev));
  EXPECT_EQ(ok.Int("ino"), static_cast<int64_t>(st.st_ino));
  const engine::DecodedEvent loop = got[1].Event();
  EXPECT_EQ(loop.Int("fd"), -ELOOP);
  EXPECT_EQ(loop.Int("dirfd"), dirfd);
  EXPECT_EQ(loop.String("name"), "link");
  EXPECT_EQ(loop.Int("resolve"), RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
  EXPECT_EQ(loop.String("path"), "link");
  EXPECT_EQ(loop.Int("dev"), 0);
  EXPECT_EQ(loop.Int("ino"), 0);
  const engine::DecodedEvent small = got[2].Event();
  EXPECT_EQ(small.Int("fd"), -EINVAL);
  EXPECT_EQ(small.Int("size"), 8);
  EXPECT_EQ(small.String("name"), "target");
  EXPECT_EQ(small.Int("flags"), std::nullopt);
  EXPECT_EQ(small.Int("mode"), std::nullopt);
  EXPECT_EQ(small.Int("resolve"), std::nullopt);
  EXPECT_EQ(small.String("path"), "target");
}

TEST_F(FileEventsTest, CloseSuccessAndFailure) {
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_close});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(close(fd), 0);
  ASSERT_EQ(close(-1), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("fd"), -1);
  EXPECT_EQ(got[1].Event().Int("res"), -EBADF);
}

TEST_F(FileEventsTest, UnlinkatSuccessAndFailure) {
  const std::string file = dir_.Touch("victim");
  const std::string sub = dir_.path() + "/subdir";
  ASSERT_EQ(mkdir(sub.c_str(), 0700), 0);
  auto session = Start({SYS_unlinkat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(unlinkat(AT_FDCWD, file.c_str(), 0), 0);
  ASSERT_EQ(unlinkat(AT_FDCWD, sub.c_str(), AT_REMOVEDIR), 0);
  ASSERT_EQ(unlinkat(AT_FDCWD, file.c_str(), 0), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(got[0].Event().String("name"), file);
  EXPECT_EQ(got[0].Event().Int("flags"), 0);
  EXPECT_EQ(got[1].Event().String("name"), sub);
  EXPECT_EQ(got[1].Event().Int("flags"), AT_REMOVEDIR);
  EXPECT_EQ(got[2].Event().Int("res"), -ENOENT);
}

}  // namespace
}  // namespace kestrel::testing
