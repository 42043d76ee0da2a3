// `kestrel settings set`, run as its own process against a pinned capture,
// takes every value up to the settings table's bounds and refuses one past
// them, naming the bound, with exit code 2 and nothing changed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "probe_session.h"

namespace kestrel::testing {
namespace {

struct KestrelRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved
};

// The arguments are this file's constants: no quoting needed.
KestrelRun Kestrel(const std::vector<std::string>& args) {
  std::string command = KESTREL_CLI_PATH;
  for (const std::string& a : args) command += " " + a;
  command += " 2>&1";
  KestrelRun r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), pipe)) > 0;) r.output.append(buf, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(SettingsCliBoundsTest, SetTakesTheBoundsAndRefusesOnePastThem) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  const std::string dir = "/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-bounds";
  {
    auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
    ASSERT_NE(session, nullptr);
    ASSERT_EQ(pman_pin(session->handle(), dir.c_str()), 0);
    const kestrel_capture_settings before = CurrentSettings(session->handle());
    const uint64_t generation = SettingsGeneration(session->handle());

    KestrelRun r = Kestrel({"settings", "set", "snaplen=16385", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("snaplen=16385: 16385 is above the maximum 16384; "
                            "nothing was changed"),
              std::string::npos)
        << r.output;
    r = Kestrel({"settings", "set", "sampling_ratio=0", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("sampling_ratio=0: 0 is below the minimum 1"), std::string::npos)
        << r.output;
    r = Kestrel({"settings", "set", "own_tgid=1", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("own_tgid is read-only"), std::string::npos) << r.output;
    const kestrel_capture_settings after = CurrentSettings(session->handle());
    EXPECT_EQ(std::memcmp(&after, &before, sizeof(before)), 0);
    EXPECT_EQ(SettingsGeneration(session->handle()), generation);

    r = Kestrel(
        {"settings", "set", "snaplen=16384", "sampling_ratio=4294967295", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(CurrentSettings(session->handle()).snaplen, 16384u);
    EXPECT_EQ(CurrentSettings(session->handle()).sampling_ratio, 4294967295u);
    r = Kestrel({"settings", "get", "snaplen", "sampling_ratio", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output, "snaplen=16384\nsampling_ratio=4294967295\n");
  }
  // pman_close removed the pins and the directory.
  struct stat st {};
  EXPECT_NE(stat(dir.c_str(), &st), 0) << dir << " survived the capture";
}

}  // namespace
}  // namespace kestrel::testing
