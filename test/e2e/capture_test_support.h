// What the capture end-to-end tests share: the lines of a command's output,
// and a fixture with a directory of its own for capture files.
#ifndef KESTREL_TEST_E2E_CAPTURE_TEST_SUPPORT_H_
#define KESTREL_TEST_E2E_CAPTURE_TEST_SUPPORT_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace kestrel::e2e {

// The '\n'-terminated lines of `text`, without their '\n'; an unterminated
// last line (a write cut short) is left out.
inline std::vector<std::string> TerminatedLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(text.substr(start, nl - start));
  }
  return lines;
}

// A test with /tmp/kestrel-e2e-<tag>-<pid>, removed with what it holds.
class CaptureDirTest : public ::testing::Test {
 protected:
  explicit CaptureDirTest(const std::string& tag)
      : dir_("/tmp/kestrel-e2e-" + tag + "-" + std::to_string(getpid())) {}
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  const std::string dir_;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_CAPTURE_TEST_SUPPORT_H_
