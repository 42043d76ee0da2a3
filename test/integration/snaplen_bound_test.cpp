// The snaplen's maximum is what the probe really keeps: a write larger than
// it captures exactly KESTREL_MAX_SNAPLEN bytes, and one byte more is
// refused rather than silently capped.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "file_events_fixture.h"
#include "shared/settings_table.h"

namespace kestrel::testing {
namespace {

// Bytes that differ along the buffer, so a shifted or short copy shows.
std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  return s;
}

class SnaplenBoundTest : public FileEventsTest {};

TEST_F(SnaplenBoundTest, WriteAboveTheMaximumKeepsExactlyTheMaximum) {
  const std::string path = dir_.Touch("data");
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_write}, {.capture_io_data = true, .snaplen = KESTREL_MAX_SNAPLEN});
  ASSERT_NE(session, nullptr);
  const std::string bytes = Pattern(KESTREL_MAX_SNAPLEN + 1000);
  ASSERT_EQ(syscall(SYS_write, fd, bytes.data(), bytes.size()), static_cast<long>(bytes.size()));
  ASSERT_EQ(syscall(SYS_write, fd, bytes.data(), KESTREL_MAX_SNAPLEN),
            static_cast<long>(KESTREL_MAX_SNAPLEN));
  close(fd);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_WRITE);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent over = got[0].Event();
  EXPECT_EQ(over.Int("res"), static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(over.Int("size"), static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(over.String("data"), bytes.substr(0, KESTREL_MAX_SNAPLEN));
  EXPECT_NE(got[0].header().flags & KESTREL_RECORD_TRUNCATED, 0);
  // Exactly the maximum fits whole.
  const engine::DecodedEvent exact = got[1].Event();
  EXPECT_EQ(exact.String("data"), bytes.substr(0, KESTREL_MAX_SNAPLEN));
  EXPECT_EQ(got[1].header().flags & KESTREL_RECORD_TRUNCATED, 0);
}

TEST_F(SnaplenBoundTest, OneByteAboveTheMaximumIsRefusedAndChangesNothing) {
  auto session = Start({SYS_write});
  ASSERT_NE(session, nullptr);
  kestrel_capture_settings s = CurrentSettings(session->handle());
  s.snaplen = KESTREL_MAX_SNAPLEN;
  ASSERT_EQ(pman_update_capture_settings(session->handle(), &s), 0);
  const uint64_t generation = SettingsGeneration(session->handle());
  s.snaplen = KESTREL_MAX_SNAPLEN + 1;
  EXPECT_EQ(pman_update_capture_settings(session->handle(), &s), -EINVAL);
  EXPECT_EQ(CurrentSettings(session->handle()).snaplen, KESTREL_MAX_SNAPLEN);
  EXPECT_EQ(SettingsGeneration(session->handle()), generation);
}

}  // namespace
}  // namespace kestrel::testing
