// File events: each syscall made with known arguments, success and failure,
// every decoded parameter checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "probe_session.h"
#include "shared/event_types.h"
#include "temp_dir.h"

namespace kestrel::testing {
namespace {

class FileEventsTest : public ::testing::Test {
 protected:
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }

  std::unique_ptr<ProbeSession> Start(std::vector<uint32_t> syscalls) {
    return ProbeSession::Start({.syscalls = std::move(syscalls)});
  }
  TempDir dir_;
};

TEST_F(FileEventsTest, OpenatReportsTheResolvedPathDeviceAndInode) {
  const std::string path = dir_.Touch("target");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
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
  EXPECT_EQ(e.Int("res"), fd);
  EXPECT_EQ(e.Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(e.Int("flags"), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(e.Int("mode"), 0);
  EXPECT_EQ(e.String("path"), path);
  EXPECT_EQ(e.Int("ino"), static_cast<int64_t>(st.st_ino));
  // The kernel's dev_t packs major:minor as 12:20 bits; stat's is glibc's.
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("dev")),
            (static_cast<uint64_t>(major(st.st_dev)) << 20) | minor(st.st_dev));
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
  EXPECT_EQ(e.Int("res"), -err);
  EXPECT_EQ(e.Int("flags"), O_WRONLY | O_CREAT | O_EXCL | O_DIRECTORY);
  EXPECT_EQ(e.Int("mode"), 0640);
  EXPECT_EQ(e.String("path"), missing);
  EXPECT_EQ(e.Int("dev"), 0);
  EXPECT_EQ(e.Int("ino"), 0);
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
  EXPECT_EQ(got[0].Event().String("path"), file);
  EXPECT_EQ(got[0].Event().Int("flags"), 0);
  EXPECT_EQ(got[1].Event().String("path"), sub);
  EXPECT_EQ(got[1].Event().Int("flags"), AT_REMOVEDIR);
  EXPECT_EQ(got[2].Event().Int("res"), -ENOENT);
}

}  // namespace
}  // namespace kestrel::testing
