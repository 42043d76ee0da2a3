// User and group names from passwd/group files the test writes, including a
// user added while the directory is in use.
#include "engine/state/user_directory.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace kestrel::engine::state {
namespace {

class UserDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kestrel-users-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    Write("passwd",
          "root:x:0:0:root:/root:/bin/bash\n"
          "# a comment\n"
          "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
          "broken line\n"
          "alias:x:0:0::/:/bin/sh\n");
    Write("group", "root:x:0:\nadm:x:4:syslog\n");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    // A new file renamed over the old one, as editors and shadow-utils do.
    const std::string tmp = dir_ + "/." + name;
    std::ofstream(tmp) << text;
    std::filesystem::rename(tmp, dir_ + "/" + name);
  }

  std::string dir_;
};

TEST_F(UserDirectoryTest, NamesComeFromTheFiles) {
  UserDirectory users(dir_ + "/passwd", dir_ + "/group");
  EXPECT_EQ(users.UserName(0), "root");  // the first entry for uid 0, not "alias"
  EXPECT_EQ(users.UserName(1), "daemon");
  EXPECT_EQ(users.UserName(4242), "");
  EXPECT_EQ(users.GroupName(4), "adm");
  EXPECT_EQ(users.GroupName(1), "");
}

TEST_F(UserDirectoryTest, AChangedFileIsReadAgain) {
  UserDirectory users(dir_ + "/passwd", dir_ + "/group", std::chrono::milliseconds(0));
  EXPECT_EQ(users.UserName(1001), "");
  const uint64_t reads = users.reads();
  EXPECT_EQ(users.UserName(0), "root");
  EXPECT_EQ(users.reads(), reads) << "an unchanged file is not read again";
  Write("passwd", "root:x:0:0:root:/root:/bin/bash\nnewcomer:x:1001:1001::/home/n:/bin/sh\n");
  EXPECT_EQ(users.UserName(1001), "newcomer");
  EXPECT_EQ(users.reads(), reads + 1);
}

TEST_F(UserDirectoryTest, ChecksForChangesAtMostOncePerInterval) {
  UserDirectory users(dir_ + "/passwd", dir_ + "/group", std::chrono::hours(1));
  EXPECT_EQ(users.UserName(1001), "");
  Write("passwd", "newcomer:x:1001:1001::/home/n:/bin/sh\n");
  EXPECT_EQ(users.UserName(1001), "") << "not looked at again within the interval";
}

TEST_F(UserDirectoryTest, AMissingFileGivesNoNames) {
  UserDirectory users(dir_ + "/nope", dir_ + "/nope");
  EXPECT_EQ(users.UserName(0), "");
  EXPECT_EQ(users.GroupName(0), "");
}

}  // namespace
}  // namespace kestrel::engine::state
