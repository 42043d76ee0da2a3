// The temporary folder every capture-file test writes its files into:
// made fresh for each test and removed with all it holds afterwards, so
// no test leaves a file behind or sees another's.
#ifndef KESTREL_TEST_UNIT_CAPTURE_FILE_CAPTURE_TEMP_DIR_H_
#define KESTREL_TEST_UNIT_CAPTURE_FILE_CAPTURE_TEMP_DIR_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace kestrel::engine::capture_file {

class CaptureTempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kestrel-capture-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // A file named `name` in the folder.
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_TEST_UNIT_CAPTURE_FILE_CAPTURE_TEMP_DIR_H_
