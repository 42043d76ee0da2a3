// What the host says about a file or a process, in the form the probe
// reports it.
#ifndef KESTREL_TEST_INTEGRATION_HOST_FILES_H_
#define KESTREL_TEST_INTEGRATION_HOST_FILES_H_

#include <gtest/gtest.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace kestrel::testing {

// The kernel's dev_t packs major:minor as 12:20 bits; glibc's stat does not.
inline int64_t KernelDev(dev_t dev) {
  return static_cast<int64_t>((static_cast<uint64_t>(major(dev)) << 20) | minor(dev));
}

// `path` with every symlink resolved; a path that does not resolve fails
// the test and comes back as it was.
inline std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) == nullptr) {
    ADD_FAILURE() << "realpath " << path;
    return path;
  }
  return buf;
}

// CLOCK_MONOTONIC start of this pid namespace's init, to the clock tick
// /proc/1/stat gives it in (start_time is boot-time based there: the two
// differ by time spent suspended, none on a test machine).
inline int64_t InitStartTicks() {
  std::ifstream in("/proc/1/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string f;
  for (int i = 3; i <= 22; ++i) fields >> f;  // field 22: starttime
  return std::stoll(f);
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_HOST_FILES_H_
