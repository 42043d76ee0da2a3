// Filesystem query and copy events: stat, lstat, fstat, newfstatat, access,
// getcwd, getdents, getdents64, lseek, mknod, mknodat, copy_file_range,
// splice, sendfile, preadv, pwritev, quotactl, fsconfig. Each is triggered
// through syscall(2), so the C library cannot swap in another syscall (its
// stat() is newfstatat), once succeeding and once failing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/quota.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

class FilesystemEventsTest : public FileEventsTest {
 protected:
  void SetUp() override {
    FileEventsTest::SetUp();
    file_ = dir_.path() + "/file";
    const int fd = open(file_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, "0123456789", 10), 10);
    close(fd);
    missing_ = dir_.path() + "/missing";
  }

  // The record's value as the unsigned 64-bit number it holds.
  static uint64_t U64(const engine::DecodedEvent& e, std::string_view name) {
    return static_cast<uint64_t>(e.Int(name).value_or(-1));
  }

  std::string file_;
  std::string missing_;
};

TEST_F(FilesystemEventsTest, StatAndLstatNameThePath) {
  const std::string link = dir_.path() + "/link";
  ASSERT_EQ(symlink(file_.c_str(), link.c_str()), 0);
  auto session = Start({SYS_stat, SYS_lstat});
  ASSERT_NE(session, nullptr);
  struct stat st {};
  ASSERT_EQ(syscall(SYS_stat, file_.c_str(), &st), 0);
  ASSERT_EQ(syscall(SYS_stat, missing_.c_str(), &st), -1);
  ASSERT_EQ(syscall(SYS_lstat, link.c_str(), &st), 0);
  ASSERT_EQ(syscall(SYS_lstat, missing_.c_str(), &st), -1);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& stats = got[KESTREL_EVT_STAT];
  const std::vector<OwnedRecord>& lstats = got[KESTREL_EVT_LSTAT];
  ASSERT_EQ(stats.size(), 2u);
  ASSERT_EQ(lstats.size(), 2u);
  EXPECT_EQ(stats[0].Event().Int("res"), 0);
  EXPECT_EQ(stats[0].Event().String("path"), file_);
  EXPECT_EQ(stats[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(stats[1].Event().String("path"), missing_);
  EXPECT_EQ(lstats[0].Event().Int("res"), 0);
  EXPECT_EQ(lstats[0].Event().String("path"), link);
  EXPECT_EQ(lstats[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(lstats[1].Event().String("path"), missing_);
}

TEST_F(FilesystemEventsTest, FstatAndNewfstatat) {
  const int dirfd = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd, 0);
  auto session = Start({SYS_fstat, SYS_newfstatat});
  ASSERT_NE(session, nullptr);
  struct stat st {};
  ASSERT_EQ(syscall(SYS_fstat, dirfd, &st), 0);
  ASSERT_EQ(syscall(SYS_fstat, -1, &st), -1);
  ASSERT_EQ(syscall(SYS_newfstatat, dirfd, "file", &st, AT_SYMLINK_NOFOLLOW), 0);
  ASSERT_EQ(syscall(SYS_newfstatat, AT_FDCWD, missing_.c_str(), &st, 0), -1);
  ASSERT_EQ(syscall(SYS_newfstatat, dirfd, "", &st, AT_EMPTY_PATH), 0);
  close(dirfd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& fstats = got[KESTREL_EVT_FSTAT];
  const std::vector<OwnedRecord>& ats = got[KESTREL_EVT_NEWFSTATAT];
  ASSERT_EQ(fstats.size(), 2u);
  ASSERT_EQ(ats.size(), 3u);
  EXPECT_EQ(fstats[0].Event().Int("res"), 0);
  EXPECT_EQ(fstats[0].Event().Int("fd"), dirfd);
  EXPECT_EQ(fstats[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(fstats[1].Event().Int("fd"), -1);
  EXPECT_EQ(ats[0].Event().Int("res"), 0);
  EXPECT_EQ(ats[0].Event().Int("dirfd"), dirfd);
  EXPECT_EQ(ats[0].Event().String("path"), "file");
  EXPECT_EQ(ats[0].Event().Int("flags"), AT_SYMLINK_NOFOLLOW);
  EXPECT_EQ(ats[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(ats[1].Event().Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(ats[1].Event().String("path"), missing_);
  EXPECT_EQ(ats[1].Event().Int("flags"), 0);
  EXPECT_EQ(ats[2].Event().Int("res"), 0);
  EXPECT_EQ(ats[2].Event().Int("dirfd"), dirfd);
  EXPECT_EQ(ats[2].Event().String("path"), "");
  EXPECT_EQ(ats[2].Event().Int("flags"), AT_EMPTY_PATH);
}

TEST_F(FilesystemEventsTest, AccessCarriesNameAndMode) {
  auto session = Start({SYS_access});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_access, file_.c_str(), R_OK | W_OK), 0);
  ASSERT_EQ(syscall(SYS_access, missing_.c_str(), F_OK), -1);
  ASSERT_EQ(syscall(SYS_access, file_.c_str(), 0x40), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_ACCESS);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().String("name"), file_);
  EXPECT_EQ(got[0].Event().Int("mode"), R_OK | W_OK);
  EXPECT_EQ(got[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(got[1].Event().String("name"), missing_);
  EXPECT_EQ(got[1].Event().Int("mode"), F_OK);
  EXPECT_EQ(got[2].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[2].Event().Int("mode"), 0x40);
}

TEST_F(FilesystemEventsTest, GetcwdReadsThePathOnlyOnSuccess) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  auto session = Start({SYS_getcwd});
  ASSERT_NE(session, nullptr);
  char buf[4096];
  const long len = syscall(SYS_getcwd, buf, sizeof(buf));
  ASSERT_EQ(len, static_cast<long>(std::string(cwd).size() + 1));
  char small[1] = {'x'};
  ASSERT_EQ(syscall(SYS_getcwd, small, sizeof(small)), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_GETCWD);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), len);
  EXPECT_EQ(got[0].Event().String("path"), std::string(cwd));
  EXPECT_EQ(got[1].Event().Int("res"), -ERANGE);
  EXPECT_EQ(got[1].Event().String("path"), "");
}

TEST_F(FilesystemEventsTest, GetdentsAndGetdents64) {
  const int dirfd = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd, 0);
  const int dirfd64 = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd64, 0);
  auto session = Start({SYS_getdents, SYS_getdents64});
  ASSERT_NE(session, nullptr);
  alignas(8) char buf[4096];
  const long n = syscall(SYS_getdents, dirfd, buf, sizeof(buf));
  ASSERT_GT(n, 0);
  ASSERT_EQ(syscall(SYS_getdents, -1, buf, sizeof(buf)), -1);
  const long n64 = syscall(SYS_getdents64, dirfd64, buf, sizeof(buf));
  ASSERT_GT(n64, 0);
  const int filefd = open(file_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(filefd, 0);
  ASSERT_EQ(syscall(SYS_getdents64, filefd, buf, sizeof(buf)), -1);
  close(filefd);
  close(dirfd);
  close(dirfd64);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& d = got[KESTREL_EVT_GETDENTS];
  const std::vector<OwnedRecord>& d64 = got[KESTREL_EVT_GETDENTS64];
  ASSERT_EQ(d.size(), 2u);
  ASSERT_EQ(d64.size(), 2u);
  EXPECT_EQ(d[0].Event().Int("res"), n);
  EXPECT_EQ(d[0].Event().Int("fd"), dirfd);
  EXPECT_EQ(d[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(d[1].Event().Int("fd"), -1);
  EXPECT_EQ(d64[0].Event().Int("res"), n64);
  EXPECT_EQ(d64[0].Event().Int("fd"), dirfd64);
  EXPECT_EQ(d64[1].Event().Int("res"), -ENOTDIR);
  EXPECT_EQ(d64[1].Event().Int("fd"), filefd);
}

TEST_F(FilesystemEventsTest, LseekOffsetAndWhence) {
  const int fd = open(file_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_lseek});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_lseek, fd, 5L, SEEK_SET), 5);
  ASSERT_EQ(syscall(SYS_lseek, fd, 2L, SEEK_CUR), 7);
  ASSERT_EQ(syscall(SYS_lseek, fd, 0L, 99), -1);
  ASSERT_EQ(syscall(SYS_lseek, -1, 3L, SEEK_END), -1);
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_LSEEK);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].Event().Int("res"), 5);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("offset"), 5);
  EXPECT_EQ(got[0].Event().Int("whence"), SEEK_SET);
  EXPECT_EQ(got[1].Event().Int("res"), 7);
  EXPECT_EQ(got[1].Event().Int("offset"), 2);
  EXPECT_EQ(got[1].Event().Int("whence"), SEEK_CUR);
  EXPECT_EQ(got[2].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[2].Event().Int("fd"), fd);
  EXPECT_EQ(got[2].Event().Int("offset"), 0);
  EXPECT_EQ(got[2].Event().Int("whence"), 99);
  EXPECT_EQ(got[3].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[3].Event().Int("fd"), -1);
  EXPECT_EQ(got[3].Event().Int("offset"), 3);
  EXPECT_EQ(got[3].Event().Int("whence"), SEEK_END);
}

TEST_F(FilesystemEventsTest, MknodAndMknodat) {
  const std::string fifo = dir_.path() + "/fifo";
  const int dirfd = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd, 0);
  auto session = Start({SYS_mknod, SYS_mknodat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_mknod, fifo.c_str(), S_IFIFO | 0640, 0), 0);
  ASSERT_EQ(syscall(SYS_mknod, fifo.c_str(), S_IFIFO | 0640, 0), -1);
  ASSERT_EQ(syscall(SYS_mknodat, dirfd, "null", S_IFCHR | 0600, makedev(1, 3)), 0);
  ASSERT_EQ(syscall(SYS_mknodat, dirfd, "missing/x", S_IFREG | 0600, 0), -1);
  close(dirfd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& mknods = got[KESTREL_EVT_MKNOD];
  const std::vector<OwnedRecord>& ats = got[KESTREL_EVT_MKNODAT];
  ASSERT_EQ(mknods.size(), 2u);
  ASSERT_EQ(ats.size(), 2u);
  EXPECT_EQ(mknods[0].Event().Int("res"), 0);
  EXPECT_EQ(mknods[0].Event().String("path"), fifo);
  EXPECT_EQ(mknods[0].Event().Int("mode"), S_IFIFO | 0640);
  EXPECT_EQ(mknods[0].Event().Int("dev"), 0);
  EXPECT_EQ(mknods[1].Event().Int("res"), -EEXIST);
  EXPECT_EQ(mknods[1].Event().String("path"), fifo);
  EXPECT_EQ(ats[0].Event().Int("res"), 0);
  EXPECT_EQ(ats[0].Event().Int("dirfd"), dirfd);
  EXPECT_EQ(ats[0].Event().String("path"), "null");
  EXPECT_EQ(ats[0].Event().Int("mode"), S_IFCHR | 0600);
  EXPECT_EQ(ats[0].Event().Int("dev"), static_cast<int64_t>(makedev(1, 3)));
  EXPECT_EQ(ats[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(ats[1].Event().String("path"), "missing/x");
  EXPECT_EQ(ats[1].Event().Int("mode"), S_IFREG | 0600);
  EXPECT_EQ(ats[1].Event().Int("dev"), 0);
}

TEST_F(FilesystemEventsTest, CopyFileRangeRecordsFdsOffsetPointersAndLength) {
  const int in = open(file_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(in, 0);
  const int out = open((dir_.path() + "/copy").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(out, 0);
  auto session = Start({SYS_copy_file_range});
  ASSERT_NE(session, nullptr);
  loff_t off_in = 2;
  ASSERT_EQ(syscall(SYS_copy_file_range, in, &off_in, out, nullptr, 4UL, 0U), 4);
  ASSERT_EQ(syscall(SYS_copy_file_range, -1, nullptr, out, nullptr, 4UL, 0U), -1);
  ASSERT_EQ(syscall(SYS_copy_file_range, in, nullptr, out, nullptr, 4UL, 1U), -1);
  close(in);
  close(out);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_COPY_FILE_RANGE);
  ASSERT_EQ(got.size(), 3u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 4);
  EXPECT_EQ(ok.Int("fdout"), out);
  EXPECT_EQ(ok.Int("offout"), 0);
  EXPECT_EQ(ok.Int("fdin"), in);
  EXPECT_EQ(U64(ok, "offin"), reinterpret_cast<uint64_t>(&off_in));
  EXPECT_EQ(ok.Int("len"), 4);
  EXPECT_EQ(ok.Int("flags"), 0);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("fdin"), -1);
  EXPECT_EQ(bad.Int("offin"), 0);
  EXPECT_EQ(bad.Int("fdout"), out);
  EXPECT_EQ(bad.Int("len"), 4);
  const engine::DecodedEvent flags = got[2].Event();
  EXPECT_EQ(flags.Int("res"), -EINVAL);
  EXPECT_EQ(flags.Int("fdin"), in);
  EXPECT_EQ(flags.Int("flags"), 1);
}

TEST_F(FilesystemEventsTest, SpliceFdsSizeAndFlags) {
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
  const int in = open(file_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(in, 0);
  auto session = Start({SYS_splice});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_splice, in, nullptr, p[1], nullptr, 3UL, SPLICE_F_MOVE | SPLICE_F_MORE), 3);
  ASSERT_EQ(syscall(SYS_splice, -1, nullptr, p[1], nullptr, 5UL, SPLICE_F_NONBLOCK), -1);
  close(in);
  close(p[0]);
  close(p[1]);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SPLICE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 3);
  EXPECT_EQ(got[0].Event().Int("fd_in"), in);
  EXPECT_EQ(got[0].Event().Int("fd_out"), p[1]);
  EXPECT_EQ(got[0].Event().Int("size"), 3);
  EXPECT_EQ(got[0].Event().Int("flags"), SPLICE_F_MOVE | SPLICE_F_MORE);
  EXPECT_EQ(got[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[1].Event().Int("fd_in"), -1);
  EXPECT_EQ(got[1].Event().Int("fd_out"), p[1]);
  EXPECT_EQ(got[1].Event().Int("size"), 5);
  EXPECT_EQ(got[1].Event().Int("flags"), SPLICE_F_NONBLOCK);
}

TEST_F(FilesystemEventsTest, SendfileReadsTheAdvancedOffset) {
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
  const int in = open(file_.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(in, 0);
  auto session = Start({SYS_sendfile});
  ASSERT_NE(session, nullptr);
  off_t offset = 1;
  ASSERT_EQ(syscall(SYS_sendfile, p[1], in, &offset, 3UL), 3);
  ASSERT_EQ(offset, 4);
  ASSERT_EQ(syscall(SYS_sendfile, p[1], -1, nullptr, 6UL), -1);
  close(in);
  close(p[0]);
  close(p[1]);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SENDFILE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 3);
  EXPECT_EQ(got[0].Event().Int("offset"), 4);
  EXPECT_EQ(got[0].Event().Int("out_fd"), p[1]);
  EXPECT_EQ(got[0].Event().Int("in_fd"), in);
  EXPECT_EQ(got[0].Event().Int("size"), 3);
  EXPECT_EQ(got[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[1].Event().Int("offset"), 0);
  EXPECT_EQ(got[1].Event().Int("out_fd"), p[1]);
  EXPECT_EQ(got[1].Event().Int("in_fd"), -1);
  EXPECT_EQ(got[1].Event().Int("size"), 6);
}

TEST_F(FilesystemEventsTest, PwritevAndPreadvAtAPosition) {
  const int fd = open(file_.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_pwritev, SYS_preadv}, {.capture_io_data = true});
  ASSERT_NE(session, nullptr);
  char a[] = "ab", b[] = "cde";
  const iovec out[] = {{a, 2}, {b, 3}};
  ASSERT_EQ(syscall(SYS_pwritev, fd, out, 2, 3L, 0L), 5);
  ASSERT_EQ(syscall(SYS_pwritev, fd, out, -1, 0L, 0L), -1);
  char x[3], y[10];
  const iovec in[] = {{x, sizeof(x)}, {y, sizeof(y)}};
  ASSERT_EQ(syscall(SYS_preadv, fd, in, 2, 2L, 0L), 8);  // "2abcde89"
  ASSERT_EQ(syscall(SYS_preadv, -1, in, 2, 0L, 0L), -1);
  close(fd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& writes = got[KESTREL_EVT_PWRITEV];
  const std::vector<OwnedRecord>& reads = got[KESTREL_EVT_PREADV];
  ASSERT_EQ(writes.size(), 2u);
  ASSERT_EQ(reads.size(), 2u);
  const engine::DecodedEvent w = writes[0].Event();
  EXPECT_EQ(w.Int("res"), 5);
  EXPECT_EQ(w.Int("fd"), fd);
  EXPECT_EQ(w.Int("pos"), 3);
  EXPECT_EQ(w.Int("iovcnt"), 2);
  EXPECT_EQ(w.Int("size"), 5);
  EXPECT_EQ(w.String("data"), "abcde");
  const engine::DecodedEvent wbad = writes[1].Event();
  EXPECT_EQ(wbad.Int("res"), -EINVAL);
  EXPECT_EQ(wbad.Int("pos"), 0);
  EXPECT_EQ(wbad.Int("iovcnt"), -1);
  EXPECT_EQ(wbad.Int("size"), std::nullopt);
  EXPECT_EQ(wbad.String("data"), "");
  const engine::DecodedEvent r = reads[0].Event();
  EXPECT_EQ(r.Int("res"), 8);
  EXPECT_EQ(r.Int("fd"), fd);
  EXPECT_EQ(r.Int("pos"), 2);
  EXPECT_EQ(r.Int("iovcnt"), 2);
  EXPECT_EQ(r.Int("size"), 13);
  EXPECT_EQ(r.String("data"), "2abcde89");
  const engine::DecodedEvent rbad = reads[1].Event();
  EXPECT_EQ(rbad.Int("res"), -EBADF);
  EXPECT_EQ(rbad.Int("fd"), -1);
  EXPECT_EQ(rbad.Int("size"), 13);
  EXPECT_EQ(rbad.String("data"), "");
}

// The quota parameters every record has, in Falco's order after `res`.
constexpr const char* kQuotaValues[] = {
    "dqb_bhardlimit", "dqb_bsoftlimit", "dqb_curspace", "dqb_ihardlimit", "dqb_isoftlimit",
    "dqb_btime",      "dqb_itime",      "dqi_bgrace",   "dqi_igrace",     "dqi_flags"};

// This machine has no quota-enabled block device: every call fails at the
// lookup of `special`, after the probe has all it reads.
TEST_F(FilesystemEventsTest, QuotactlFailuresCarryWhatTheCallerPassed) {
  const std::string quota_file = dir_.path() + "/aquota.group";
  if_dqblk set_limits{};
  set_limits.dqb_bhardlimit = 1000;
  set_limits.dqb_bsoftlimit = 900;
  set_limits.dqb_curspace = 77;  // not valid below: not reported
  set_limits.dqb_itime = 1234;
  set_limits.dqb_valid = QIF_BLIMITS | QIF_ITIME;
  if_dqblk get_limits = set_limits;
  if_dqinfo info{};
  info.dqi_bgrace = 100;
  info.dqi_igrace = 200;  // not valid below
  info.dqi_flags = 1;
  info.dqi_valid = IIF_BGRACE | IIF_FLAGS;
  auto session = Start({SYS_quotactl});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_quotactl, QCMD(Q_SETQUOTA, USRQUOTA), missing_.c_str(), 1001, &set_limits),
            -1);
  ASSERT_EQ(errno, ENOENT);
  ASSERT_EQ(syscall(SYS_quotactl, QCMD(Q_GETQUOTA, USRQUOTA), missing_.c_str(), 1002, &get_limits),
            -1);
  ASSERT_EQ(syscall(SYS_quotactl, QCMD(Q_QUOTAON, GRPQUOTA), missing_.c_str(), QFMT_VFS_V0,
                    quota_file.c_str()),
            -1);
  ASSERT_EQ(syscall(SYS_quotactl, QCMD(Q_SETINFO, PRJQUOTA), missing_.c_str(), 5, &info), -1);
  ASSERT_EQ(errno, ENOENT);
  ASSERT_EQ(syscall(SYS_quotactl, QCMD(Q_GETFMT, USRQUOTA), nullptr, 0, nullptr), -1);
  ASSERT_EQ(errno, ENODEV);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_QUOTACTL);
  ASSERT_EQ(got.size(), 5u);
  const engine::DecodedEvent setq = got[0].Event();
  EXPECT_EQ(setq.Int("res"), -ENOENT);
  EXPECT_EQ(setq.String("special"), missing_);
  EXPECT_EQ(setq.String("quotafilepath"), "");
  EXPECT_EQ(setq.Int("dqb_bhardlimit"), 1000);
  EXPECT_EQ(setq.Int("dqb_bsoftlimit"), 900);
  EXPECT_EQ(setq.Int("dqb_curspace"), 0);
  EXPECT_EQ(setq.Int("dqb_ihardlimit"), 0);
  EXPECT_EQ(setq.Int("dqb_isoftlimit"), 0);
  EXPECT_EQ(setq.Int("dqb_btime"), 0);
  EXPECT_EQ(setq.Int("dqb_itime"), 1234);
  EXPECT_EQ(setq.Int("dqi_bgrace"), 0);
  EXPECT_EQ(setq.Int("dqi_igrace"), 0);
  EXPECT_EQ(setq.Int("dqi_flags"), 0);
  EXPECT_EQ(setq.Int("quota_fmt_out"), 0);
  EXPECT_EQ(setq.Int("cmd"), Q_SETQUOTA);
  EXPECT_EQ(setq.Int("type"), USRQUOTA);
  EXPECT_EQ(setq.Int("id"), 1001);
  EXPECT_EQ(setq.Int("quota_fmt"), 0);

  // A failed get wrote nothing: the caller's buffer is not reported.
  const engine::DecodedEvent getq = got[1].Event();
  EXPECT_EQ(getq.Int("res"), -ENOENT);
  for (const char* name : kQuotaValues) EXPECT_EQ(getq.Int(name), 0) << name;
  EXPECT_EQ(getq.Int("cmd"), Q_GETQUOTA);
  EXPECT_EQ(getq.Int("type"), USRQUOTA);
  EXPECT_EQ(getq.Int("id"), 1002);

  const engine::DecodedEvent on = got[2].Event();
  EXPECT_EQ(on.Int("res"), -ENOENT);
  EXPECT_EQ(on.String("special"), missing_);
  EXPECT_EQ(on.String("quotafilepath"), quota_file);
  for (const char* name : kQuotaValues) EXPECT_EQ(on.Int(name), 0) << name;
  EXPECT_EQ(on.Int("quota_fmt_out"), 0);
  EXPECT_EQ(on.Int("cmd"), Q_QUOTAON);
  EXPECT_EQ(on.Int("type"), GRPQUOTA);
  EXPECT_EQ(on.Int("id"), 0);  // the format, not an id
  EXPECT_EQ(on.Int("quota_fmt"), QFMT_VFS_V0);

  const engine::DecodedEvent setinfo = got[3].Event();
  EXPECT_EQ(setinfo.Int("res"), -ENOENT);
  EXPECT_EQ(setinfo.Int("dqb_bhardlimit"), 0);
  EXPECT_EQ(setinfo.Int("dqi_bgrace"), 100);
  EXPECT_EQ(setinfo.Int("dqi_igrace"), 0);
  EXPECT_EQ(setinfo.Int("dqi_flags"), 1);
  EXPECT_EQ(setinfo.Int("cmd"), Q_SETINFO);
  EXPECT_EQ(setinfo.Int("type"), PRJQUOTA);
  EXPECT_EQ(setinfo.Int("id"), 0);
  EXPECT_EQ(setinfo.Int("quota_fmt"), 0);

  const engine::DecodedEvent getfmt = got[4].Event();
  EXPECT_EQ(getfmt.Int("res"), -ENODEV);
  EXPECT_EQ(getfmt.String("special"), "");
  EXPECT_EQ(getfmt.Int("quota_fmt_out"), 0);
  EXPECT_EQ(getfmt.Int("cmd"), Q_GETFMT);
  EXPECT_EQ(getfmt.Int("type"), USRQUOTA);
}

// fsopen gives a filesystem context to configure without mounting it.
TEST_F(FilesystemEventsTest, FsconfigOnATmpfsContext) {
  const int fs = static_cast<int>(syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC));
  ASSERT_GE(fs, 0);
  auto session = Start({SYS_fsconfig});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "1m", 0), 0);
  ASSERT_EQ(syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "kestrel-nokey", "v", 0), -1);
  ASSERT_EQ(syscall(SYS_fsconfig, fs, FSCONFIG_SET_BINARY, "size", "abc", 3), -1);
  ASSERT_EQ(syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0), 0);
  ASSERT_EQ(syscall(SYS_fsconfig, -1, FSCONFIG_SET_FLAG, "ro", nullptr, 0), -1);
  close(fs);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_FSCONFIG);
  ASSERT_EQ(got.size(), 5u);
  const engine::DecodedEvent size = got[0].Event();
  EXPECT_EQ(size.Int("res"), 0);
  EXPECT_EQ(size.Int("fd"), fs);
  EXPECT_EQ(size.Int("cmd"), FSCONFIG_SET_STRING);
  EXPECT_EQ(size.String("key"), "size");
  EXPECT_EQ(size.String("value_bytebuf"), "");
  EXPECT_EQ(size.String("value_charbuf"), "1m");
  EXPECT_EQ(size.Int("aux"), 0);
  const engine::DecodedEvent nokey = got[1].Event();
  EXPECT_EQ(nokey.Int("res"), -EINVAL);
  EXPECT_EQ(nokey.String("key"), "kestrel-nokey");
  EXPECT_EQ(nokey.String("value_charbuf"), "");  // not read for a failed call
  const engine::DecodedEvent binary = got[2].Event();
  EXPECT_EQ(binary.Int("res"), -EINVAL);
  EXPECT_EQ(binary.Int("cmd"), FSCONFIG_SET_BINARY);
  EXPECT_EQ(binary.String("value_bytebuf"), "");
  EXPECT_EQ(binary.String("value_charbuf"), "");
  EXPECT_EQ(binary.Int("aux"), 3);
  const engine::DecodedEvent create = got[3].Event();
  EXPECT_EQ(create.Int("res"), 0);
  EXPECT_EQ(create.Int("cmd"), FSCONFIG_CMD_CREATE);
  EXPECT_EQ(create.String("key"), "");
  EXPECT_EQ(create.String("value_charbuf"), "");
  const engine::DecodedEvent badfd = got[4].Event();
  EXPECT_EQ(badfd.Int("res"), -EINVAL);  // a negative fd is refused before any lookup
  EXPECT_EQ(badfd.Int("fd"), -1);
  EXPECT_EQ(badfd.Int("cmd"), FSCONFIG_SET_FLAG);
  EXPECT_EQ(badfd.String("key"), "ro");
}

}  // namespace
}  // namespace kestrel::testing
