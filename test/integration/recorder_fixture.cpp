#include "recorder_fixture.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <regex>
#include <sstream>

#include "kestrel/common/stderr_log.h"

namespace kestrel::testing {
namespace {

std::atomic<int> g_next_root{0};

}  // namespace

ScopedRecorderPins::ScopedRecorderPins(const std::string& name)
    : root_("/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-" +
            std::to_string(g_next_root++)),
      name_(name) {}

ScopedRecorderPins::~ScopedRecorderPins() {
  const pman_recorder_options o = Options();
  const int rc = pman_recorder_stop(&o);
  EXPECT_TRUE(rc == 0 || rc == -ENOENT) << "stopping " << dir() << ": " << rc;
  if (rmdir(root_.c_str()) != 0) {
    EXPECT_EQ(errno, ENOENT) << "removing " << root_;
  }
}

pman_recorder_options ScopedRecorderPins::Options() const {
  pman_recorder_options o;
  pman_recorder_default_options(&o);
  o.pin_root = root_.c_str();
  o.name = name_.c_str();
  o.log_fn = cli::LogToStderr;
  o.log_ctx = cli::CommandLogContext("pman recorder");
  return o;
}

std::array<uint64_t, 6> TaggedArgs(uint64_t tag) {
  std::array<uint64_t, 6> a{};
  a[0] = tag;
  uint64_t x = tag * 0x9e3779b97f4a7c15ULL + 0x6a09e667f3bcc909ULL;
  for (int i = 1; i < 6; ++i) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    a[i] = x;
  }
  return a;
}

long ChecksummedGetppid(uint64_t tag) {
  const std::array<uint64_t, 6> a = TaggedArgs(tag);
  return syscall(SYS_getppid, a[0], a[1], a[2], a[3], a[4], a[5]);
}

bool ChecksumHolds(const std::array<uint64_t, 6>& args) { return args == TaggedArgs(args[0]); }

std::vector<DumpedCall> ParseJsonDump(const std::string& out) {
  static const std::regex kLine(
      R"re("tid":(\d+),"pid":(\d+),.*"syscall":"([a-z0-9_]+)".*"args":\[(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\])re");
  std::vector<DumpedCall> calls;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, kLine)) {
      ADD_FAILURE() << "unparsable dump line: " << line;
      continue;
    }
    DumpedCall c;
    c.tid = static_cast<uint32_t>(std::stoul(m[1]));
    c.pid = static_cast<uint32_t>(std::stoul(m[2]));
    c.syscall = m[3];
    for (int i = 0; i < 6; ++i) c.args[i] = std::stoull(m[4 + i]);
    calls.push_back(c);
  }
  return calls;
}

}  // namespace kestrel::testing
