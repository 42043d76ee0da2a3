// A private directory under /tmp for one test, removed with its contents.
#ifndef KESTREL_TEST_INTEGRATION_TEMP_DIR_H_
#define KESTREL_TEST_INTEGRATION_TEMP_DIR_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace kestrel::testing {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/kestrel-test-XXXXXX";
    EXPECT_NE(mkdtemp(tmpl), nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

  // Creates an empty file `name` in the directory; returns its path.
  std::string Touch(const std::string& name) const {
    const std::string p = path_ + "/" + name;
    const int fd = open(p.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    close(fd);
    return p;
  }

 private:
  std::string path_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_TEMP_DIR_H_
