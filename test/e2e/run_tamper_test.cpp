// Issue 21's tamper tests: a change to the probe of a running `kestrel
// run` that the engine did not make (another process through the pinned
// control block, or writing the map with the bpf() syscall as bpftool
// does) raises one Critical internal alert naming it; with
// --lock-settings every writer is refused and nothing changes. Issue 35:
// the change is put back, with a second alert, unless the config allows
// changes from outside.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"
#include "run_triggers.h"
#include "shared/control_block.h"

namespace kestrel::e2e {
namespace {

const std::string kChanged = "Critical The probe was changed by another process: ";
const std::string kPutBack = "Critical The probe was put back as the rules need it: ";

std::string TamperPinDir() { return absl::StrCat("/sys/fs/bpf/kestrel-e2e-tamper-", getpid()); }

// Turns syscall `id` off in the pinned control block with the bpf()
// syscall, as `bpftool map update` would: no libpman, no generation bump.
void ClearInterestingByMapWrite(const std::string& pin_dir, uint32_t id) {
  const int fd = bpf_obj_get((pin_dir + "/control").c_str());
  ASSERT_GE(fd, 0);
  bpf_map_info info{};
  uint32_t info_len = sizeof info;
  ASSERT_EQ(bpf_obj_get_info_by_fd(fd, &info, &info_len), 0);
  // The map's one value is the control block (in .bss or array mode).
  ASSERT_EQ(info.value_size, sizeof(kestrel_control_block));
  std::vector<uint8_t> value(info.value_size);
  const uint32_t key = 0;
  ASSERT_EQ(bpf_map_lookup_elem(fd, &key, value.data()), 0);
  value[offsetof(kestrel_control_block, interesting_syscalls) + id] = 0;
  ASSERT_EQ(bpf_map_update_elem(fd, &key, value.data(), BPF_ANY), 0);
  close(fd);
}

const std::string kHookDetached = "kestrel run: syscall-exit hook detached: no syscall is captured";
const std::string kHookAttached =
    "kestrel run: syscall-exit hook attached again: a syscall is captured";

// "  2 open                     on" -> "open".
std::string SyscallNameOf(const std::string& list_line) {
  std::vector<std::string> words = absl::StrSplit(list_line, ' ', absl::SkipEmpty());
  return words.size() == 3 ? words[1] : std::string();
}

// Whether some BPF link holds a program named kestrel_sys_exit (as the
// kernel keeps it: cut to 15 characters): the
// dispatcher of this test's `kestrel run` (suites that load a probe hold
// ctest's probe lock: one at a time).
bool HookLinked() {
  for (uint32_t id = 0; bpf_link_get_next_id(id, &id) == 0;) {
    const int link = bpf_link_get_fd_by_id(id);
    if (link < 0) continue;
    bpf_link_info info{};
    uint32_t len = sizeof info;
    const bool got = bpf_obj_get_info_by_fd(link, &info, &len) == 0;
    close(link);
    if (!got) continue;
    const int prog = bpf_prog_get_fd_by_id(info.prog_id);
    if (prog < 0) continue;
    bpf_prog_info pinfo{};
    uint32_t plen = sizeof pinfo;
    const bool named = bpf_obj_get_info_by_fd(prog, &pinfo, &plen) == 0 &&
                       std::string_view(pinfo.name) ==
                           std::string_view("kestrel_sys_exit").substr(0, BPF_OBJ_NAME_LEN - 1);
    close(prog);
    if (named) return true;
  }
  return false;
}

class RunTamperTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root"; }
  RunTempDir dir_;
  PinDirGuard pin_{TamperPinDir()};
};

TEST_F(RunTamperTest, EachChangeByAnotherProcessIsAlertedAndPutBack) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  KestrelProcess run({"run", "-r", rules, "--pin-dir", pin_.dir()});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));

  // Each change: the alert naming it, then the one saying it was undone.
  auto changed_and_put_back = [&](const std::string& change) {
    EXPECT_TRUE(run.WaitForLine(kChanged + change, kAlertTimeout)) << change;
    EXPECT_TRUE(run.WaitForLine(kPutBack + change, kAlertTimeout)) << change;
  };
  EXPECT_EQ(RunKestrel({"settings", "set", "snaplen=4096", "--pin-dir", pin_.dir()}).exit_code, 0);
  changed_and_put_back("snaplen 0 -> 4096");
  const CliResult snaplen = RunKestrel({"settings", "get", "snaplen", "--pin-dir", pin_.dir()});
  EXPECT_EQ(snaplen.out, "snaplen=0\n") << snaplen.err;
  EXPECT_EQ(RunKestrel({"syscalls", "disable", "openat", "--pin-dir", pin_.dir()}).exit_code, 0);
  changed_and_put_back("syscalls off: openat");
  // Not blind: the rule that needs openat fires again.
  const std::string after = dir_.File("mark-after-put-back");
  OpenFile(after);
  EXPECT_TRUE(run.WaitForLine(after, kAlertTimeout));
  // getppid is not captured: the engine left it never dropped.
  EXPECT_EQ(RunKestrel({"syscalls", "drop-class", "always", "getppid", "--pin-dir", pin_.dir()})
                .exit_code,
            0);
  changed_and_put_back("drop class never -> always: getppid");
  ClearInterestingByMapWrite(pin_.dir(), SYS_close);
  changed_and_put_back("syscalls off: close");
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // One alert per change and one per repair, and the stats count them.
  EXPECT_EQ(CountLinesWith(Lines(r.out), kChanged), 4u) << r.out;
  EXPECT_EQ(CountLinesWith(Lines(r.out), kPutBack), 4u) << r.out;
  EXPECT_TRUE(absl::StrContains(r.err, "; probe changed by another process 4 times, put back 4"))
      << r.err;
  EXPECT_FALSE(PathExists(pin_.dir())) << "the pin outlived kestrel run";
}

TEST_F(RunTamperTest, AllowedOutsideChangesAreAlertedAndKept) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  KestrelProcess run(
      {"run", "-r", rules, "--pin-dir", pin_.dir(), "-o", "allow_outside_changes=true"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  EXPECT_EQ(RunKestrel({"settings", "set", "snaplen=4096", "--pin-dir", pin_.dir()}).exit_code, 0);
  EXPECT_TRUE(run.WaitForLine(absl::StrCat(kChanged, "snaplen 0 -> 4096"), kAlertTimeout));
  const CliResult snaplen = RunKestrel({"settings", "get", "snaplen", "--pin-dir", pin_.dir()});
  EXPECT_EQ(snaplen.out, "snaplen=4096\n") << snaplen.err;

  // Every syscall turned off: the syscall-exit hook goes, so that nothing
  // costs any syscall anything, and comes back with the first one on.
  std::vector<std::string> on = {"syscalls", "disable"};
  for (const std::string& line :
       Lines(RunKestrel({"syscalls", "list", "--pin-dir", pin_.dir()}).out)) {
    if (line.ends_with(" on")) on.push_back(SyscallNameOf(line));
  }
  ASSERT_GT(on.size(), 2u);
  on.insert(on.end(), {"--pin-dir", pin_.dir()});
  EXPECT_EQ(RunKestrel(on).exit_code, 0);
  EXPECT_TRUE(run.WaitForStderr(kHookDetached, 1, kAlertTimeout));
  EXPECT_FALSE(HookLinked()) << "the syscall-exit hook is still linked";
  const std::string unseen = dir_.File("mark-while-detached");
  OpenFile(unseen);
  EXPECT_EQ(RunKestrel({"syscalls", "enable", "openat", "--pin-dir", pin_.dir()}).exit_code, 0);
  EXPECT_TRUE(run.WaitForStderr(kHookAttached, 1, kAlertTimeout));
  EXPECT_TRUE(HookLinked());
  const std::string seen = dir_.File("mark-after-attach");
  OpenFile(seen);
  EXPECT_TRUE(run.WaitForLine(seen, kAlertTimeout));

  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(CountLinesWith(Lines(r.out), kPutBack), 0u) << r.out;
  EXPECT_EQ(CountLinesWith(run.lines(), unseen), 0u) << "captured while detached";
  EXPECT_TRUE(absl::StrContains(r.err, "; probe changed by another process 3 times, put back 0"))
      << r.err;
}

TEST_F(RunTamperTest, LockSettingsRefusesEveryWriterAndNothingChanges) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  KestrelProcess run({"run", "-r", rules, "--pin-dir", pin_.dir(), "--lock-settings"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));

  const CliResult set = RunKestrel({"settings", "set", "snaplen=4096", "--pin-dir", pin_.dir()});
  EXPECT_NE(set.exit_code, 0);
  EXPECT_TRUE(absl::StrContains(set.err, "locked")) << set.err;
  const CliResult disable = RunKestrel({"syscalls", "disable", "openat", "--pin-dir", pin_.dir()});
  EXPECT_NE(disable.exit_code, 0);
  EXPECT_TRUE(absl::StrContains(disable.err, "locked")) << disable.err;
  // A frozen map refuses the bpf() syscall too.
  const int fd = bpf_obj_get((pin_.dir() + "/control").c_str());
  ASSERT_GE(fd, 0);
  std::vector<uint8_t> value(sizeof(kestrel_control_block));
  const uint32_t key = 0;
  ASSERT_EQ(bpf_map_lookup_elem(fd, &key, value.data()), 0);
  EXPECT_NE(bpf_map_update_elem(fd, &key, value.data(), BPF_ANY), 0);
  close(fd);
  // Still capturing what it captured.
  const std::string after = dir_.File("mark-after-writers");
  OpenFile(after);
  const std::optional<std::string> alert = run.WaitForLine(after, kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: load shedding off: --lock-settings froze the "
                                "probe\n"))
      << r.err;
  EXPECT_EQ(CountLinesWith(run.lines(), kChanged), 0u) << r.out;
  EXPECT_TRUE(absl::StrContains(r.err, "; probe changed by another process 0 times, put back 0"))
      << r.err;
}

// The ids of the BPF links `pid` holds (its fdinfo says link_id).
std::vector<uint32_t> LinksHeldBy(pid_t pid) {
  std::vector<uint32_t> ids;
  for (const std::string& fd : DirEntries(absl::StrCat("/proc/", pid, "/fd"))) {
    std::ifstream info(absl::StrCat("/proc/", pid, "/fdinfo/", fd));
    for (std::string line; std::getline(info, line);) {
      uint32_t id = 0;
      if (std::sscanf(line.c_str(), "link_id: %u", &id) == 1) ids.push_back(id);
    }
  }
  return ids;
}

// Detaching the running probe, as `bpftool link detach` does: the kernel
// has no detach for the raw-tracepoint links the probe is attached with,
// so every attempt is refused and capture goes on. (The links cannot be
// re-pointed at another program either: they have no update.)
TEST_F(RunTamperTest, DetachingTheProbesLinksIsRefusedAndCaptureGoesOn) {
  const std::string mark = absl::StrCat("detach-", getpid());
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, ExecRule(mark));
  KestrelProcess run({"run", "-r", rules, "--pin-dir", pin_.dir()});
  std::optional<std::string> before;
  for (int i = 0; i < 60 && !before; ++i) {
    ExecTrue(mark);
    before = run.WaitForLine(absl::StrCat("ran true ", mark), std::chrono::milliseconds(500));
  }
  ASSERT_TRUE(before);
  const std::vector<uint32_t> links = LinksHeldBy(run.pid());
  ASSERT_GE(links.size(), 1u);  // sys_exit, and the process-lifecycle hooks
  for (uint32_t id : links) {
    const int fd = bpf_link_get_fd_by_id(id);
    ASSERT_GE(fd, 0) << "link " << id;
    EXPECT_EQ(bpf_link_detach(fd), -EOPNOTSUPP) << "link " << id;
    close(fd);
  }
  ExecTrue(mark);
  EXPECT_TRUE(run.WaitForLine(absl::StrCat("ran true ", mark), kAlertTimeout))
      << "capture stopped after the detach attempts";
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
