// A bpffs pin directory owned by one test: it must not exist beforehand,
// and whatever a failed run left in it is removed at the end, so no pin
// outlives the test.
#ifndef KESTREL_TEST_E2E_PIN_DIR_GUARD_H_
#define KESTREL_TEST_E2E_PIN_DIR_GUARD_H_

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace kestrel::e2e {

inline bool PathExists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

inline std::vector<std::string> DirEntries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  return names;
}

class PinDirGuard {
 public:
  explicit PinDirGuard(std::string dir) : dir_(std::move(dir)) {
    owned_ = !PathExists(dir_);
    EXPECT_TRUE(owned_) << dir_ << " exists already: not this test's, left alone";
  }
  ~PinDirGuard() {
    if (!owned_ || !PathExists(dir_)) return;
    ADD_FAILURE() << dir_ << " survived the capture; removing it";
    for (const std::string& name : DirEntries(dir_)) unlink((dir_ + "/" + name).c_str());
    rmdir(dir_.c_str());
  }
  PinDirGuard(const PinDirGuard&) = delete;
  PinDirGuard& operator=(const PinDirGuard&) = delete;

  const std::string& dir() const { return dir_; }
  bool owned() const { return owned_; }

 private:
  std::string dir_;
  bool owned_ = false;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_PIN_DIR_GUARD_H_
