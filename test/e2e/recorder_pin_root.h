// A bpffs pin root private to one recorder test, and the commands the
// recorder tests run around the binary.
#ifndef KESTREL_TEST_E2E_RECORDER_PIN_ROOT_H_
#define KESTREL_TEST_E2E_RECORDER_PIN_ROOT_H_

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"

namespace kestrel::e2e {

// /sys/fs/bpf/kestrel-e2e-<pid>-<n>, created empty. The destructor stops
// the recorder named `name` through the binary if its folder is still there,
// then removes whatever the test left under the root (all of it the test's
// own) and the root itself, so no pin, program or folder survives.
class RecorderPinRoot {
 public:
  RecorderPinRoot();
  ~RecorderPinRoot();
  RecorderPinRoot(const RecorderPinRoot&) = delete;
  RecorderPinRoot& operator=(const RecorderPinRoot&) = delete;

  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }
  std::string dir() const { return path_ + "/" + name_; }

  // `kestrel VERB... --name NAME --pin-root ROOT EXTRA...`.
  std::vector<std::string> Args(const std::vector<std::string>& verb,
                                const std::vector<std::string>& extra = {}) const;

 private:
  std::string path_;
  std::string name_ = "rec";
};

bool Exists(const std::string& path);

// Runs `bpftool map create PATH type TYPE key 4 value VALUE entries N name
// NAME`: an ordinary map that is no recorder's. Fails the test if it fails.
void CreateForeignMap(const std::string& path, const std::string& type, int value_size, int entries,
                      const std::string& name);

// The lines of `text` that contain every one of `needles`.
std::vector<std::string> LinesWith(const std::string& text,
                                   const std::vector<std::string>& needles);

// Definitions (header-only: the e2e target globs only *_test.cpp).

inline RecorderPinRoot::RecorderPinRoot() {
  static std::atomic<int> counter{0};
  path_ = absl::StrFormat("/sys/fs/bpf/kestrel-e2e-%d-%d", getpid(), counter++);
  EXPECT_EQ(mkdir(path_.c_str(), 0700), 0) << path_ << ": " << strerror(errno);
}

inline RecorderPinRoot::~RecorderPinRoot() {
  if (Exists(dir())) RunKestrel(Args({"recorder", "stop"}));
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
  EXPECT_FALSE(Exists(path_)) << path_ << " survived the test";
}

inline std::vector<std::string> RecorderPinRoot::Args(const std::vector<std::string>& verb,
                                                      const std::vector<std::string>& extra) const {
  std::vector<std::string> args = verb;
  for (const std::string& a : {std::string("--name"), name_, std::string("--pin-root"), path_}) {
    args.push_back(a);
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

inline bool Exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

inline void CreateForeignMap(const std::string& path, const std::string& type, int value_size,
                             int entries, const std::string& name) {
  const std::string command =
      absl::StrFormat("bpftool map create %s type %s key 4 value %d entries %d name %s", path, type,
                      value_size, entries, name);
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
}

inline std::vector<std::string> LinesWith(const std::string& text,
                                          const std::vector<std::string>& needles) {
  std::vector<std::string> found;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    bool all = true;
    for (const std::string& n : needles) all = all && line.find(n) != absl::string_view::npos;
    if (all && !line.empty()) found.emplace_back(line);
  }
  return found;
}

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_RECORDER_PIN_ROOT_H_
