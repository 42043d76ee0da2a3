// File events, I/O family: read, write, pread64, pwrite64, readv, writev.
// Data is captured only when the settings ask for it, and only the bytes
// really transferred, bounded by the snaplen.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "file_events_fixture.h"

namespace kestrel::testing {
namespace {

class FileIoEventsTest : public FileEventsTest {
 protected:
  void SetUp() override {
    FileEventsTest::SetUp();
    ASSERT_EQ(pipe2(pipe_, O_CLOEXEC), 0);
  }
  void TearDown() override {
    close(pipe_[0]);
    close(pipe_[1]);
  }
  int pipe_[2] = {-1, -1};
};

TEST_F(FileIoEventsTest, ReadCapturesWhatWasReadWhenAsked) {
  ASSERT_EQ(write(pipe_[1], "hello", 5), 5);
  auto session = Start({SYS_read}, {.capture_io_data = true});
  ASSERT_NE(session, nullptr);
  char buf[64];
  ASSERT_EQ(syscall(SYS_read, pipe_[0], buf, sizeof(buf)), 5);
  ASSERT_EQ(syscall(SYS_read, -1, buf, sizeof(buf)), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_READ);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 5);
  EXPECT_EQ(ok.Int("fd"), pipe_[0]);
  EXPECT_EQ(ok.Int("size"), 64);
  EXPECT_EQ(ok.String("data"), "hello");
  EXPECT_EQ(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("fd"), -1);
  EXPECT_EQ(bad.Int("size"), 64);
  EXPECT_EQ(bad.String("data"), "");
}

TEST_F(FileIoEventsTest, ReadKeepsNoDataUnlessAsked) {
  ASSERT_EQ(write(pipe_[1], "secret", 6), 6);
  auto session = Start({SYS_read});
  ASSERT_NE(session, nullptr);
  char buf[16];
  ASSERT_EQ(syscall(SYS_read, pipe_[0], buf, sizeof(buf)), 6);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_READ);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Event().Int("res"), 6);
  EXPECT_EQ(got[0].Event().Int("size"), 16);
  EXPECT_TRUE(got[0].Event().Raw("data").empty());
}

TEST_F(FileIoEventsTest, WriteDataIsCutAtTheSnaplenAndFlagged) {
  auto session = Start({SYS_write}, {.capture_io_data = true, .snaplen = 4});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_write, pipe_[1], "world!", 6), 6);
  ASSERT_EQ(syscall(SYS_write, pipe_[0], "x", 1), -1);  // the read end

  // Only the pipe's: a sanitizer's runtime may write too.
  std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_WRITE);
  std::erase_if(got, [&](const OwnedRecord& r) {
    const std::optional<int64_t> fd = r.Event().Int("fd");
    return fd != pipe_[0] && fd != pipe_[1];
  });
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 6);
  EXPECT_EQ(ok.Int("fd"), pipe_[1]);
  EXPECT_EQ(ok.Int("size"), 6);
  EXPECT_EQ(ok.String("data"), "worl");
  EXPECT_NE(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("fd"), pipe_[0]);
  EXPECT_EQ(bad.Int("size"), 1);
  EXPECT_EQ(bad.String("data"), "");
}

TEST_F(FileIoEventsTest, Pwrite64AndPread64CarryThePosition) {
  const std::string path = dir_.Touch("data");
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_pwrite64, SYS_pread64}, {.capture_io_data = true});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_pwrite64, fd, "abcdef", 6, off_t{10}), 6);
  char buf[8] = {};
  ASSERT_EQ(syscall(SYS_pread64, fd, buf, 4, off_t{12}), 4);
  ASSERT_EQ(syscall(SYS_pread64, fd, buf, 4, off_t{-1}), -1);
  ASSERT_EQ(syscall(SYS_pwrite64, -1, "x", 1, off_t{0}), -1);
  close(fd);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& writes = got[KESTREL_EVT_PWRITE64];
  const std::vector<OwnedRecord>& reads = got[KESTREL_EVT_PREAD64];
  ASSERT_EQ(writes.size(), 2u);
  ASSERT_EQ(reads.size(), 2u);
  const engine::DecodedEvent w = writes[0].Event();
  EXPECT_EQ(w.Int("res"), 6);
  EXPECT_EQ(w.Int("fd"), fd);
  EXPECT_EQ(w.Int("size"), 6);
  EXPECT_EQ(w.Int("pos"), 10);
  EXPECT_EQ(w.String("data"), "abcdef");
  const engine::DecodedEvent wbad = writes[1].Event();
  EXPECT_EQ(wbad.Int("res"), -EBADF);
  EXPECT_EQ(wbad.Int("fd"), -1);
  EXPECT_EQ(wbad.Int("size"), 1);
  EXPECT_EQ(wbad.Int("pos"), 0);
  EXPECT_EQ(wbad.String("data"), "");
  const engine::DecodedEvent r = reads[0].Event();
  EXPECT_EQ(r.Int("res"), 4);
  EXPECT_EQ(r.Int("fd"), fd);
  EXPECT_EQ(r.Int("size"), 4);
  EXPECT_EQ(r.Int("pos"), 12);
  EXPECT_EQ(r.String("data"), "cdef");
  const engine::DecodedEvent rbad = reads[1].Event();
  EXPECT_EQ(rbad.Int("res"), -EINVAL);
  EXPECT_EQ(rbad.Int("pos"), -1);
  EXPECT_EQ(rbad.String("data"), "");
}

TEST_F(FileIoEventsTest, WritevAndReadvSumTheIovecsAndGatherTheData) {
  auto session = Start({SYS_writev, SYS_readv}, {.capture_io_data = true});
  ASSERT_NE(session, nullptr);
  char a[] = "ab", b[] = "cde";
  const iovec out[] = {{a, 2}, {b, 3}};
  ASSERT_EQ(syscall(SYS_writev, pipe_[1], out, 2), 5);
  char x[3], y[10];
  const iovec in[] = {{x, sizeof(x)}, {y, sizeof(y)}};
  ASSERT_EQ(syscall(SYS_readv, pipe_[0], in, 2), 5);
  ASSERT_EQ(syscall(SYS_readv, -1, in, 2), -1);
  ASSERT_EQ(syscall(SYS_writev, pipe_[1], out, -1), -1);

  auto got = DrainByType(*session);
  const std::vector<OwnedRecord>& writes = got[KESTREL_EVT_WRITEV];
  const std::vector<OwnedRecord>& reads = got[KESTREL_EVT_READV];
  ASSERT_EQ(writes.size(), 2u);
  ASSERT_EQ(reads.size(), 2u);
  const engine::DecodedEvent w = writes[0].Event();
  EXPECT_EQ(w.Int("res"), 5);
  EXPECT_EQ(w.Int("fd"), pipe_[1]);
  EXPECT_EQ(w.Int("iovcnt"), 2);
  EXPECT_EQ(w.Int("size"), 5);
  EXPECT_EQ(w.String("data"), "abcde");
  const engine::DecodedEvent wbad = writes[1].Event();
  EXPECT_EQ(wbad.Int("res"), -EINVAL);
  EXPECT_EQ(wbad.Int("iovcnt"), -1);
  EXPECT_EQ(wbad.Int("size"), std::nullopt);
  EXPECT_EQ(wbad.String("data"), "");
  const engine::DecodedEvent r = reads[0].Event();
  EXPECT_EQ(r.Int("res"), 5);
  EXPECT_EQ(r.Int("fd"), pipe_[0]);
  EXPECT_EQ(r.Int("iovcnt"), 2);
  EXPECT_EQ(r.Int("size"), 13);
  EXPECT_EQ(r.String("data"), "abcde");
  const engine::DecodedEvent rbad = reads[1].Event();
  EXPECT_EQ(rbad.Int("res"), -EBADF);
  EXPECT_EQ(rbad.Int("fd"), -1);
  EXPECT_EQ(rbad.Int("size"), 13);
  EXPECT_EQ(rbad.String("data"), "");
}

TEST_F(FileIoEventsTest, ReadvDataStopsAtTheSnaplen) {
  ASSERT_EQ(write(pipe_[1], "0123456789", 10), 10);
  auto session = Start({SYS_readv}, {.capture_io_data = true, .snaplen = 5});
  ASSERT_NE(session, nullptr);
  char x[3], y[10];
  const iovec in[] = {{x, sizeof(x)}, {y, sizeof(y)}};
  ASSERT_EQ(syscall(SYS_readv, pipe_[0], in, 2), 10);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_READV);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Event().Int("size"), 13);
  EXPECT_EQ(got[0].Event().String("data"), "01234");
  EXPECT_NE(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

}  // namespace
}  // namespace kestrel::testing
