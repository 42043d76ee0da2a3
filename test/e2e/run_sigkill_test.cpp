// Issue 21: `kestrel run` killed with SIGKILL at random moments, 20 times
// in a row. Nothing stays loaded (its programs go with its descriptors);
// the pins a kill leaves behind are recognised by the next start as a dead
// capture's, replaced, and said so; the last run stops cleanly and takes
// its pins with it.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// The ids of the BPF programs `pid` holds, through a program or link
// descriptor (its fdinfo says prog_id).
std::set<uint32_t> ProgramsHeldBy(pid_t pid) {
  std::set<uint32_t> ids;
  const std::string fds = absl::StrCat("/proc/", pid, "/fd");
  for (const std::string& fd : DirEntries(fds)) {
    std::ifstream info(absl::StrCat("/proc/", pid, "/fdinfo/", fd));
    for (std::string line; std::getline(info, line);) {
      uint32_t id = 0;
      if (std::sscanf(line.c_str(), "prog_id: %u", &id) == 1) ids.insert(id);
    }
  }
  return ids;
}

// Whether any of `ids` is still a loaded program after up to 10 s: a
// killed process's programs are detached at once and freed after an RCU
// grace period, which a busy machine can stretch.
bool AnyStillLoaded(const std::set<uint32_t>& ids) {
  for (int i = 0; i < 500; ++i) {
    bool any = false;
    for (uint32_t id : ids) {
      const int fd = bpf_prog_get_fd_by_id(id);
      if (fd >= 0) {
        close(fd);
        any = true;
      }
    }
    if (!any) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

TEST(RunSigkillTest, KilledAtRandomMomentsLeavesNothingAttachedAndTheNextStartRecovers) {
  ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
  PinDirGuard pin(absl::StrCat("/sys/fs/bpf/kestrel-e2e-sigkill-", getpid()));
  RunTempDir dir;
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir.path()));

  // The first run is killed right after it pinned, which also tells how
  // long a start takes here; the others at random moments up to twice that.
  int replaced = 0;
  auto kill_after = [&](int i, auto wait) {
    KestrelProcess run({"run", "-r", rules, "--pin-dir", pin.dir()});
    wait();
    const std::set<uint32_t> programs = ProgramsHeldBy(run.pid());
    if (i == 0) {
      EXPECT_FALSE(programs.empty()) << "the pinned run held no program";
    }
    run.Signal(SIGKILL);
    const CliResult r = run.Wait();
    EXPECT_EQ(r.exit_code, 128 + SIGKILL) << "kill " << i << ": " << r.err;
    EXPECT_FALSE(absl::StrContains(r.err, "already exists")) << "kill " << i << ": " << r.err;
    replaced += absl::StrContains(r.err, "removed the pins a killed capture left at") ? 1 : 0;
    EXPECT_FALSE(AnyStillLoaded(programs)) << "a program outlived kill " << i;
  };
  const auto start = std::chrono::steady_clock::now();
  auto to_pin = std::chrono::milliseconds(0);
  kill_after(0, [&] {
    while (!PathExists(pin.dir() + "/rings") &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    to_pin = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
  });
  ASSERT_TRUE(PathExists(pin.dir() + "/rings")) << "the first run never pinned";
  // Commands against the pins the kill left say the capture is gone,
  // instead of storing settings nothing reads.
  for (std::vector<std::string> command :
       {std::vector<std::string>{"settings", "set", "snaplen=100"},
        std::vector<std::string>{"syscalls", "disable", "openat"}}) {
    command.insert(command.end(), {"--pin-dir", pin.dir()});
    const CliResult dead = RunKestrel(command);
    EXPECT_EQ(dead.exit_code, 1) << command[0] << ": " << dead.err;
    EXPECT_TRUE(
        absl::StrContains(dead.err, absl::StrCat("the capture pinned at ", pin.dir(), " is gone")))
        << command[0] << ": " << dead.err;
  }
  std::mt19937 rng(21);  // fixed: a failure replays with the same moments
  std::uniform_int_distribution<int64_t> delay_ms(0, 2 * to_pin.count());
  for (int i = 1; i < 20; ++i) {
    kill_after(i, [&] { std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng))); });
  }

  KestrelProcess run({"run", "-r", rules, "--pin-dir", pin.dir()});
  ASSERT_TRUE(WaitUntilAlerting(run, dir));
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  replaced += absl::StrContains(r.err, "removed the pins a killed capture left at") ? 1 : 0;
  // Every kill after the pinning left pins, and a later start replaced them.
  EXPECT_GT(replaced, 0);
  EXPECT_FALSE(PathExists(pin.dir())) << "the pin outlived kestrel run";
}

}  // namespace
}  // namespace kestrel::e2e
