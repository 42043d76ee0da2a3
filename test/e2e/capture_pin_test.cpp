// `kestrel capture --pin-dir DIR`, `--pin` and `--lock-settings`, driven
// from other `kestrel` processes as a user would: a syscall enabled from
// outside shows up in the running capture at once, and a locked capture
// refuses every change.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"
#include "podman.h"
#include "recorder_pin_root.h"
#include "syscall_children.h"

namespace kestrel::e2e {
namespace {

constexpr auto kLineTimeout = std::chrono::seconds(20);

std::string TestPinDir() { return absl::StrCat("/sys/fs/bpf/kestrel-e2e-", getpid()); }

// The generic record prints the raw first argument, where the child puts
// its tag.
std::string CallLine(const char* name, uint32_t tag) { return absl::StrCat(name, "(", tag, ", "); }

// The state `kestrel syscalls list` prints for `name` ("on" / "off").
std::string SyscallState(const std::string& list, const std::string& name) {
  for (absl::string_view line : absl::StrSplit(list, '\n')) {
    std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.size() == 3 && words[1] == name) return words[2];
  }
  return "missing";
}

size_t CountChanges(const std::vector<std::string>& lines) {
  size_t n = 0;
  for (const std::string& line : lines) n += absl::StrContains(line, " settings_changed ");
  return n;
}

// Drives `child` through tagged rounds and reads the capture up to each
// round's getppid line, which follows that round's getpgrp line if the
// capture reports getpgrp at all (one thread's records come out in order).
class RoundReader {
 public:
  RoundReader(KestrelProcess& capture, TaggedSyscallChild& child)
      : capture_(capture), child_(child) {}

  // Rounds until one shows up: the capture is attached from then on.
  bool WaitUntilCapturing() {
    const auto deadline = std::chrono::steady_clock::now() + kLineTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      const uint32_t tag = next_tag_++;
      if (!child_.Round(tag)) return false;
      if (capture_.WaitForLine(CallLine("getppid", tag), std::chrono::milliseconds(200))) {
        return true;
      }
    }
    return false;
  }

  // One round; true if its getpgrp was captured. Fails the test if its
  // getppid (always captured) does not arrive.
  bool RoundCapturesGetpgrp() {
    const uint32_t tag = next_tag_++;
    EXPECT_TRUE(child_.Round(tag));
    const size_t before = capture_.lines().size();
    if (!capture_.WaitForLine(CallLine("getppid", tag), kLineTimeout)) {
      ADD_FAILURE() << "round " << tag << ": no getppid line";
      return false;
    }
    const std::string getpgrp = CallLine("getpgrp", tag);
    for (size_t i = before; i < capture_.lines().size(); ++i) {
      if (capture_.lines()[i].find(getpgrp) != std::string::npos) return true;
    }
    return false;
  }

 private:
  KestrelProcess& capture_;
  TaggedSyscallChild& child_;
  uint32_t next_tag_ = 1000;
};

TEST(CapturePinTest, SyscallsEnabledFromAnotherProcessShowUpAtOnce) {
  PinDirGuard pins(TestPinDir());
  ASSERT_TRUE(pins.owned());
  TaggedSyscallChild child;
  KestrelProcess capture({"capture", "--pin-dir", pins.dir(), "--syscalls", "getppid", "--pid",
                          std::to_string(child.pid())});
  RoundReader rounds(capture, child);
  ASSERT_TRUE(rounds.WaitUntilCapturing());
  EXPECT_TRUE(PathExists(pins.dir() + "/control"));
  EXPECT_FALSE(rounds.RoundCapturesGetpgrp());

  CliResult enable = RunKestrel({"syscalls", "enable", "getpgrp", "--pin-dir", pins.dir()});
  ASSERT_EQ(enable.exit_code, 0) << enable.err;
  EXPECT_TRUE(rounds.RoundCapturesGetpgrp());
  EXPECT_TRUE(rounds.RoundCapturesGetpgrp());

  CliResult disable = RunKestrel({"syscalls", "disable", "getpgrp", "--pin-dir", pins.dir()});
  ASSERT_EQ(disable.exit_code, 0) << disable.err;
  EXPECT_FALSE(rounds.RoundCapturesGetpgrp());

  capture.Signal(SIGINT);
  const CliResult done = capture.Wait();
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_NE(done.out.find("settings_changed"), std::string::npos);
  EXPECT_FALSE(PathExists(pins.dir())) << "pins left behind";
}

TEST(CapturePinTest, LockedSettingsRefuseEveryChange) {
  PinDirGuard pins(TestPinDir());
  ASSERT_TRUE(pins.owned());
  TaggedSyscallChild child;
  KestrelProcess capture({"capture", "--pin-dir", pins.dir(), "--lock-settings", "--syscalls",
                          "getppid", "--pid", std::to_string(child.pid())});
  RoundReader rounds(capture, child);
  ASSERT_TRUE(rounds.WaitUntilCapturing());
  // The load's own settings_changed came before the child's first record.
  const size_t changes_at_start = CountChanges(capture.lines());

  CliResult enable = RunKestrel({"syscalls", "enable", "getpgrp", "--pin-dir", pins.dir()});
  EXPECT_NE(enable.exit_code, 0);
  EXPECT_NE(enable.err.find("kestrel syscalls"), std::string::npos) << enable.err;
  CliResult set = RunKestrel({"settings", "set", "snaplen=100", "--pin-dir", pins.dir()});
  EXPECT_NE(set.exit_code, 0);
  EXPECT_NE(set.err.find("kestrel settings"), std::string::npos) << set.err;

  // Unchanged: getpgrp still off, in the table and in the capture.
  CliResult list = RunKestrel({"syscalls", "list", "--pin-dir", pins.dir()});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(SyscallState(list.out, "getpgrp"), "off") << list.out;
  EXPECT_EQ(SyscallState(list.out, "getppid"), "on") << list.out;
  CliResult get = RunKestrel({"settings", "get", "snaplen", "--pin-dir", pins.dir()});
  EXPECT_EQ(get.exit_code, 0) << get.err;
  EXPECT_EQ(get.out.find("100"), std::string::npos) << get.out;
  EXPECT_FALSE(rounds.RoundCapturesGetpgrp());

  capture.Signal(SIGINT);
  const CliResult done = capture.Wait();
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(CountChanges(absl::StrSplit(done.out, '\n')), changes_at_start)
      << "a locked capture reported a change:\n"
      << done.out;
  EXPECT_FALSE(PathExists(pins.dir())) << "pins left behind";
}

TEST(CapturePinTest, PinWithoutDirUsesTheDefaultAndRemovesItAtExit) {
  PinDirGuard pins("/sys/fs/bpf/kestrel");
  ASSERT_TRUE(pins.owned());
  TaggedSyscallChild child;
  KestrelProcess capture(
      {"capture", "--pin", "--syscalls", "getppid", "--pid", std::to_string(child.pid())});
  RoundReader rounds(capture, child);
  ASSERT_TRUE(rounds.WaitUntilCapturing());
  for (const char* pin : {"control", "counters", "rings"}) {
    EXPECT_TRUE(PathExists(pins.dir() + "/" + pin)) << pin;
  }
  capture.Signal(SIGTERM);
  const CliResult done = capture.Wait();
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_FALSE(PathExists(pins.dir())) << "pins left behind";
}

TEST(CapturePinTest, PinDirThatCannotBeCreatedFailsWithOneLine) {
  // Not on a bpffs: pinning fails, and nothing stays attached or pinned.
  const std::string dir = absl::StrCat("/tmp/kestrel-e2e-not-bpffs-", getpid());
  CliResult r = RunKestrel({"capture", "--pin-dir", dir, "--syscalls", "getppid", "--count", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("not on a bpffs"), std::string::npos) << r.err;
  EXPECT_FALSE(PathExists(dir));
}

// Where nothing mounted bpffs (no systemd), pinning under /sys/fs/bpf
// mounts it there, as bpftool does. Run in a mount namespace of its own:
// the host's bpffs is left alone, and the new one goes with the namespace.
TEST(CapturePinTest, MountsBpffsWhereNoneIsMounted) {
  const std::string mounted = "grep -q ' /sys/fs/bpf bpf ' /proc/self/mounts";
  std::string out;
  const int rc = RunArgv({"unshare", "--mount", "--propagation", "private", "sh", "-c",
                          absl::StrCat("umount -l /sys/fs/bpf 2>/dev/null; ", mounted,
                                       " && exit 3; ", KESTREL_CLI_PATH,
                                       " capture --pin --syscalls getppid --duration 1 2>&1 "
                                       ">/dev/null || exit 4; ",
                                       mounted, " || exit 5")},
                         &out);
  EXPECT_EQ(rc, 0) << out;
}

// A pin folder that is not this user's, or holds what is not a capture's
// pins, is never pinned into nor removed: one line says why.
TEST(CapturePinTest, APinDirOfAnotherUserOrOfOtherPinsIsRefusedInOneLine) {
  const std::string dir = absl::StrCat("/sys/fs/bpf/kestrel-e2e-foreign-", getpid());
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(chown(dir.c_str(), 65534, 65534), 0);
  CliResult r = RunKestrel({"capture", "--pin-dir", dir, "--syscalls", "getppid", "--count", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, absl::StrCat("kestrel: ", dir,
                                " belongs to uid 65534, not to this user: whoever owns it could "
                                "swap the pins, so Kestrel does not pin there (remove it, or pick "
                                "another --pin-dir)\n"));
  ASSERT_EQ(chown(dir.c_str(), 0, 0), 0);
  CreateForeignMap(dir + "/control", "array", 8, 1, "not_kestrel");
  r = RunKestrel({"capture", "--pin-dir", dir, "--syscalls", "getppid", "--count", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, absl::StrCat("kestrel: ", dir,
                                " holds something that is not a Kestrel capture's pins (remove "
                                "it, or pick another --pin-dir)\n"));
  EXPECT_TRUE(PathExists(dir + "/control")) << "someone else's pin was removed";
  unlink((dir + "/control").c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace kestrel::e2e
