// File events that act on names: unlink, rename*, mkdir*, rmdir, link*,
// symlink*, chmod family, chown family, truncate family.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

class FileNameEventsTest : public FileEventsTest {
 protected:
  std::string In(const std::string& name) const { return dir_.path() + "/" + name; }
  // An O_PATH-free directory fd for the *at calls, closed by the fixture.
  int DirFd() {
    dirfd_ = open(dir_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    EXPECT_GE(dirfd_, 0);
    return dirfd_;
  }
  void TearDown() override {
    if (dirfd_ >= 0) close(dirfd_);
  }
  int dirfd_ = -1;
};

TEST_F(FileNameEventsTest, UnlinkSuccessAndFailure) {
  const std::string file = dir_.Touch("victim");
  auto session = Start({SYS_unlink});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_unlink, file.c_str()), 0);
  ASSERT_EQ(syscall(SYS_unlink, file.c_str()), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_UNLINK);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().String("path"), file);
  EXPECT_EQ(got[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(got[1].Event().String("path"), file);
}

TEST_F(FileNameEventsTest, RenameSuccessAndFailure) {
  const std::string from = dir_.Touch("from");
  const std::string to = In("to");
  auto session = Start({SYS_rename});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_rename, from.c_str(), to.c_str()), 0);
  ASSERT_EQ(syscall(SYS_rename, from.c_str(), to.c_str()), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_RENAME);
  ASSERT_EQ(got.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(got[i].Event().String("oldpath"), from);
    EXPECT_EQ(got[i].Event().String("newpath"), to);
  }
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("res"), -ENOENT);
}

TEST_F(FileNameEventsTest, RenameatSuccessAndFailure) {
  dir_.Touch("from");
  const int dirfd = DirFd();
  auto session = Start({SYS_renameat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_renameat, dirfd, "from", AT_FDCWD, In("to").c_str()), 0);
  ASSERT_EQ(syscall(SYS_renameat, -1, "from", dirfd, "to"), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_RENAMEAT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 0);
  EXPECT_EQ(ok.Int("olddirfd"), dirfd);
  EXPECT_EQ(ok.String("oldpath"), "from");
  EXPECT_EQ(ok.Int("newdirfd"), AT_FDCWD);
  EXPECT_EQ(ok.String("newpath"), In("to"));
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("olddirfd"), -1);
  EXPECT_EQ(bad.String("oldpath"), "from");
  EXPECT_EQ(bad.Int("newdirfd"), dirfd);
  EXPECT_EQ(bad.String("newpath"), "to");
}

TEST_F(FileNameEventsTest, Renameat2SuccessAndFailure) {
  dir_.Touch("a");
  dir_.Touch("b");
  const int dirfd = DirFd();
  auto session = Start({SYS_renameat2});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_renameat2, dirfd, "a", dirfd, "b", RENAME_EXCHANGE), 0);
  ASSERT_EQ(syscall(SYS_renameat2, dirfd, "a", dirfd, "b", RENAME_NOREPLACE), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_RENAMEAT2);
  ASSERT_EQ(got.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const engine::DecodedEvent e = got[i].Event();
    EXPECT_EQ(e.Int("olddirfd"), dirfd);
    EXPECT_EQ(e.String("oldpath"), "a");
    EXPECT_EQ(e.Int("newdirfd"), dirfd);
    EXPECT_EQ(e.String("newpath"), "b");
  }
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("flags"), RENAME_EXCHANGE);
  EXPECT_EQ(got[1].Event().Int("res"), -EEXIST);
  EXPECT_EQ(got[1].Event().Int("flags"), RENAME_NOREPLACE);
}

TEST_F(FileNameEventsTest, MkdirAndRmdirSuccessAndFailure) {
  const std::string sub = In("sub");
  auto session = Start({SYS_mkdir, SYS_rmdir});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_mkdir, sub.c_str(), 0751), 0);
  ASSERT_EQ(syscall(SYS_mkdir, sub.c_str(), 0700), -1);
  ASSERT_EQ(syscall(SYS_rmdir, sub.c_str()), 0);
  ASSERT_EQ(syscall(SYS_rmdir, sub.c_str()), -1);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& mk = got[KESTREL_EVT_MKDIR];
  const std::vector<OwnedRecord>& rm = got[KESTREL_EVT_RMDIR];
  ASSERT_EQ(mk.size(), 2u);
  ASSERT_EQ(rm.size(), 2u);
  EXPECT_EQ(mk[0].Event().Int("res"), 0);
  EXPECT_EQ(mk[0].Event().String("path"), sub);
  EXPECT_EQ(mk[0].Event().Int("mode"), 0751);
  EXPECT_EQ(mk[1].Event().Int("res"), -EEXIST);
  EXPECT_EQ(mk[1].Event().String("path"), sub);
  EXPECT_EQ(mk[1].Event().Int("mode"), 0700);
  EXPECT_EQ(rm[0].Event().Int("res"), 0);
  EXPECT_EQ(rm[0].Event().String("path"), sub);
  EXPECT_EQ(rm[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(rm[1].Event().String("path"), sub);
}

TEST_F(FileNameEventsTest, MkdiratSuccessAndFailure) {
  const int dirfd = DirFd();
  auto session = Start({SYS_mkdirat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_mkdirat, dirfd, "sub", 0705), 0);
  ASSERT_EQ(syscall(SYS_mkdirat, -1, "sub", 0705), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_MKDIRAT);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("dirfd"), dirfd);
  EXPECT_EQ(got[0].Event().String("path"), "sub");
  EXPECT_EQ(got[0].Event().Int("mode"), 0705);
  EXPECT_EQ(got[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[1].Event().Int("dirfd"), -1);
  EXPECT_EQ(got[1].Event().String("path"), "sub");
  EXPECT_EQ(got[1].Event().Int("mode"), 0705);
}

TEST_F(FileNameEventsTest, LinkAndSymlinkSuccessAndFailure) {
  const std::string target = dir_.Touch("target");
  const std::string hard = In("hard");
  const std::string soft = In("soft");
  auto session = Start({SYS_link, SYS_symlink});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_link, target.c_str(), hard.c_str()), 0);
  ASSERT_EQ(syscall(SYS_link, target.c_str(), hard.c_str()), -1);
  // A symlink's target is stored as given, never resolved.
  ASSERT_EQ(syscall(SYS_symlink, "../nowhere", soft.c_str()), 0);
  ASSERT_EQ(syscall(SYS_symlink, "../nowhere", soft.c_str()), -1);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& links = got[KESTREL_EVT_LINK];
  const std::vector<OwnedRecord>& syms = got[KESTREL_EVT_SYMLINK];
  ASSERT_EQ(links.size(), 2u);
  ASSERT_EQ(syms.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(links[i].Event().String("oldpath"), target);
    EXPECT_EQ(links[i].Event().String("newpath"), hard);
    EXPECT_EQ(syms[i].Event().String("target"), "../nowhere");
    EXPECT_EQ(syms[i].Event().String("linkpath"), soft);
  }
  EXPECT_EQ(links[0].Event().Int("res"), 0);
  EXPECT_EQ(links[1].Event().Int("res"), -EEXIST);
  EXPECT_EQ(syms[0].Event().Int("res"), 0);
  EXPECT_EQ(syms[1].Event().Int("res"), -EEXIST);
}

TEST_F(FileNameEventsTest, LinkatSuccessAndFailure) {
  dir_.Touch("target");
  const int dirfd = DirFd();
  auto session = Start({SYS_linkat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_linkat, dirfd, "target", AT_FDCWD, In("hard").c_str(), AT_SYMLINK_FOLLOW),
            0);
  ASSERT_EQ(syscall(SYS_linkat, dirfd, "target", dirfd, "hard2", 0x8000), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_LINKAT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 0);
  EXPECT_EQ(ok.Int("olddir"), dirfd);
  EXPECT_EQ(ok.String("oldpath"), "target");
  EXPECT_EQ(ok.Int("newdir"), AT_FDCWD);
  EXPECT_EQ(ok.String("newpath"), In("hard"));
  EXPECT_EQ(ok.Int("flags"), AT_SYMLINK_FOLLOW);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -EINVAL);
  EXPECT_EQ(bad.Int("newdir"), dirfd);
  EXPECT_EQ(bad.String("newpath"), "hard2");
  EXPECT_EQ(bad.Int("flags"), 0x8000);
}

TEST_F(FileNameEventsTest, SymlinkatSuccessAndFailure) {
  const int dirfd = DirFd();
  auto session = Start({SYS_symlinkat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_symlinkat, "/etc/hostname", dirfd, "soft"), 0);
  ASSERT_EQ(syscall(SYS_symlinkat, "/etc/hostname", dirfd, "soft"), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SYMLINKAT);
  ASSERT_EQ(got.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(got[i].Event().String("target"), "/etc/hostname");
    EXPECT_EQ(got[i].Event().Int("linkdirfd"), dirfd);
    EXPECT_EQ(got[i].Event().String("linkpath"), "soft");
  }
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("res"), -EEXIST);
}

TEST_F(FileNameEventsTest, ChmodFamilySuccessAndFailure) {
  const std::string file = dir_.Touch("file");
  const std::string missing = In("missing");
  const int dirfd = DirFd();
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_chmod, SYS_fchmod, SYS_fchmodat});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_chmod, file.c_str(), 0640), 0);
  ASSERT_EQ(syscall(SYS_chmod, missing.c_str(), 0600), -1);
  ASSERT_EQ(syscall(SYS_fchmod, fd, 04755), 0);
  ASSERT_EQ(syscall(SYS_fchmod, -1, 0600), -1);
  ASSERT_EQ(syscall(SYS_fchmodat, dirfd, "file", 0444), 0);
  ASSERT_EQ(syscall(SYS_fchmodat, dirfd, "missing", 0444), -1);
  close(fd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& chmods = got[KESTREL_EVT_CHMOD];
  const std::vector<OwnedRecord>& fchmods = got[KESTREL_EVT_FCHMOD];
  const std::vector<OwnedRecord>& ats = got[KESTREL_EVT_FCHMODAT];
  ASSERT_EQ(chmods.size(), 2u);
  ASSERT_EQ(fchmods.size(), 2u);
  ASSERT_EQ(ats.size(), 2u);
  EXPECT_EQ(chmods[0].Event().Int("res"), 0);
  EXPECT_EQ(chmods[0].Event().String("filename"), file);
  EXPECT_EQ(chmods[0].Event().Int("mode"), 0640);
  EXPECT_EQ(chmods[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(chmods[1].Event().String("filename"), missing);
  EXPECT_EQ(chmods[1].Event().Int("mode"), 0600);
  // fchmod's path is the fd's, from its struct file.
  EXPECT_EQ(fchmods[0].Event().Int("res"), 0);
  EXPECT_EQ(fchmods[0].Event().Int("fd"), fd);
  EXPECT_EQ(fchmods[0].Event().Int("mode"), 04755);
  EXPECT_EQ(fchmods[0].Event().String("path"), file);
  EXPECT_EQ(fchmods[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(fchmods[1].Event().Int("fd"), -1);
  EXPECT_EQ(fchmods[1].Event().Int("mode"), 0600);
  EXPECT_EQ(fchmods[1].Event().String("path"), "");
  EXPECT_EQ(ats[0].Event().Int("res"), 0);
  EXPECT_EQ(ats[0].Event().Int("dirfd"), dirfd);
  EXPECT_EQ(ats[0].Event().String("filename"), "file");
  EXPECT_EQ(ats[0].Event().Int("mode"), 0444);
  EXPECT_EQ(ats[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(ats[1].Event().String("filename"), "missing");
  EXPECT_EQ(Stat(file).st_mode & 07777, 0444u);
}

TEST_F(FileNameEventsTest, ChownFamilySuccessAndFailure) {
  const std::string file = dir_.Touch("file");
  const std::string link = In("link");
  ASSERT_EQ(symlink(file.c_str(), link.c_str()), 0);
  const std::string missing = In("missing");
  const int dirfd = DirFd();
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_chown, SYS_fchown, SYS_fchownat, SYS_lchown});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_chown, file.c_str(), 1234, 5678), 0);
  ASSERT_EQ(syscall(SYS_chown, missing.c_str(), 1, 2), -1);
  ASSERT_EQ(syscall(SYS_fchown, fd, 4321, -1), 0);
  ASSERT_EQ(syscall(SYS_fchown, -1, 1, 2), -1);
  ASSERT_EQ(syscall(SYS_fchownat, dirfd, "link", 7, 8, AT_SYMLINK_NOFOLLOW), 0);
  ASSERT_EQ(syscall(SYS_fchownat, dirfd, "missing", 7, 8, 0), -1);
  ASSERT_EQ(syscall(SYS_lchown, link.c_str(), 9, 10), 0);
  ASSERT_EQ(syscall(SYS_lchown, missing.c_str(), 9, 10), -1);
  close(fd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& chowns = got[KESTREL_EVT_CHOWN];
  const std::vector<OwnedRecord>& fchowns = got[KESTREL_EVT_FCHOWN];
  const std::vector<OwnedRecord>& ats = got[KESTREL_EVT_FCHOWNAT];
  const std::vector<OwnedRecord>& lchowns = got[KESTREL_EVT_LCHOWN];
  ASSERT_EQ(chowns.size(), 2u);
  ASSERT_EQ(fchowns.size(), 2u);
  ASSERT_EQ(ats.size(), 2u);
  ASSERT_EQ(lchowns.size(), 2u);
  EXPECT_EQ(chowns[0].Event().Int("res"), 0);
  EXPECT_EQ(chowns[0].Event().String("path"), file);
  EXPECT_EQ(chowns[0].Event().Int("uid"), 1234);
  EXPECT_EQ(chowns[0].Event().Int("gid"), 5678);
  EXPECT_EQ(chowns[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(chowns[1].Event().String("path"), missing);
  EXPECT_EQ(chowns[1].Event().Int("uid"), 1);
  EXPECT_EQ(chowns[1].Event().Int("gid"), 2);
  EXPECT_EQ(fchowns[0].Event().Int("res"), 0);
  EXPECT_EQ(fchowns[0].Event().Int("fd"), fd);
  EXPECT_EQ(fchowns[0].Event().Int("uid"), 4321);
  EXPECT_EQ(fchowns[0].Event().Int("gid"), 0xffffffffLL);  // -1: unchanged
  EXPECT_EQ(fchowns[0].Event().String("path"), file);
  EXPECT_EQ(fchowns[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(fchowns[1].Event().Int("fd"), -1);
  EXPECT_EQ(fchowns[1].Event().String("path"), "");
  EXPECT_EQ(ats[0].Event().Int("res"), 0);
  EXPECT_EQ(ats[0].Event().Int("dirfd"), dirfd);
  EXPECT_EQ(ats[0].Event().String("pathname"), "link");
  EXPECT_EQ(ats[0].Event().Int("uid"), 7);
  EXPECT_EQ(ats[0].Event().Int("gid"), 8);
  EXPECT_EQ(ats[0].Event().Int("flags"), AT_SYMLINK_NOFOLLOW);
  EXPECT_EQ(ats[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(ats[1].Event().String("pathname"), "missing");
  EXPECT_EQ(ats[1].Event().Int("flags"), 0);
  EXPECT_EQ(lchowns[0].Event().Int("res"), 0);
  EXPECT_EQ(lchowns[0].Event().String("path"), link);
  EXPECT_EQ(lchowns[0].Event().Int("uid"), 9);
  EXPECT_EQ(lchowns[0].Event().Int("gid"), 10);
  EXPECT_EQ(lchowns[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(lchowns[1].Event().String("path"), missing);
  // The calls really happened as recorded.
  EXPECT_EQ(Stat(file).st_uid, 4321u);
  EXPECT_EQ(Stat(link).st_uid, 9u);
}

TEST_F(FileNameEventsTest, TruncateAndFtruncateSuccessAndFailure) {
  const std::string file = dir_.Touch("file");
  const std::string missing = In("missing");
  const int fd = open(file.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_truncate, SYS_ftruncate});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_truncate, file.c_str(), off_t{4096}), 0);
  ASSERT_EQ(syscall(SYS_truncate, missing.c_str(), off_t{1}), -1);
  ASSERT_EQ(syscall(SYS_ftruncate, fd, off_t{123}), 0);
  ASSERT_EQ(syscall(SYS_ftruncate, fd, off_t{-5}), -1);
  close(fd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& t = got[KESTREL_EVT_TRUNCATE];
  const std::vector<OwnedRecord>& ft = got[KESTREL_EVT_FTRUNCATE];
  ASSERT_EQ(t.size(), 2u);
  ASSERT_EQ(ft.size(), 2u);
  EXPECT_EQ(t[0].Event().Int("res"), 0);
  EXPECT_EQ(t[0].Event().String("path"), file);
  EXPECT_EQ(t[0].Event().Int("length"), 4096);
  EXPECT_EQ(t[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(t[1].Event().String("path"), missing);
  EXPECT_EQ(t[1].Event().Int("length"), 1);
  EXPECT_EQ(ft[0].Event().Int("res"), 0);
  EXPECT_EQ(ft[0].Event().Int("fd"), fd);
  EXPECT_EQ(ft[0].Event().Int("length"), 123);
  EXPECT_EQ(ft[0].Event().String("path"), file);
  EXPECT_EQ(ft[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(ft[1].Event().Int("length"), -5);
  EXPECT_EQ(ft[1].Event().String("path"), file);
  EXPECT_EQ(Stat(file).st_size, 123);
}

}  // namespace
}  // namespace kestrel::testing
