#include "engine/decode/syscall_names.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "shared/syscall_table_x86_64.h"

namespace kestrel::engine {
namespace {

TEST(SyscallNamesTest, MatchesTheLibcNumbers) {
  EXPECT_EQ(SyscallId("read"), SYS_read);
  EXPECT_EQ(SyscallId("openat"), SYS_openat);
  EXPECT_EQ(SyscallId("execve"), SYS_execve);
  EXPECT_EQ(SyscallId("getppid"), SYS_getppid);
  EXPECT_EQ(SyscallId("clone3"), SYS_clone3);
  EXPECT_EQ(SyscallName(SYS_close), "close");
  EXPECT_EQ(SyscallName(SYS_connect), "connect");
}

TEST(SyscallNamesTest, KnowsSyscallsNewerThanTheBuildHeaders) {
  EXPECT_EQ(SyscallId("cachestat"), 451u);
  EXPECT_EQ(SyscallId("mseal"), 462u);
}

TEST(SyscallNamesTest, UnknownNamesAndIdsAreEmpty) {
  EXPECT_FALSE(SyscallId("not_a_syscall").has_value());
  EXPECT_EQ(SyscallName(400), "");  // the gap between rseq and pidfd_send_signal
  EXPECT_EQ(SyscallName(KESTREL_SYSCALL_TABLE_SIZE), "");
  EXPECT_EQ(SyscallName(UINT32_MAX), "");
}

TEST(SyscallNamesTest, TableIsSortedUniqueAndFitsTheProbeTable) {
  const auto& all = AllSyscalls();
  ASSERT_GT(all.size(), 360u);
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].id, all[i].id);
  EXPECT_LT(all.back().id, static_cast<uint32_t>(KESTREL_SYSCALL_TABLE_SIZE));
}

TEST(SyscallNamesTest, ParsesALists) {
  absl::StatusOr<std::vector<uint32_t>> ids = ParseSyscallList("openat, execve,connect");
  ASSERT_TRUE(ids.ok()) << ids.status();
  EXPECT_EQ(*ids, (std::vector<uint32_t>{SYS_openat, SYS_execve, SYS_connect}));
}

TEST(SyscallNamesTest, ListErrorsNameTheBadEntry) {
  absl::StatusOr<std::vector<uint32_t>> ids = ParseSyscallList("openat,opne");
  ASSERT_FALSE(ids.ok());
  EXPECT_NE(ids.status().message().find("\"opne\" at position 2"), std::string::npos)
      << ids.status();
  EXPECT_FALSE(ParseSyscallList("openat,,close").ok());
  EXPECT_FALSE(ParseSyscallList("").ok());
}

}  // namespace
}  // namespace kestrel::engine
