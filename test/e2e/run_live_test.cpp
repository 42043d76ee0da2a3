// `kestrel run` on the live probe: real triggers raise exact JSON alerts; a
// rules change reloads live, the probe's table follows it through the pin
// with no record lost; a capture file replays to the same alerts.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

std::string TestPinDir() { return absl::StrCat("/sys/fs/bpf/kestrel-e2e-run-", getpid()); }

// The state `kestrel syscalls list` prints for `name` ("on" / "off").
std::string SyscallState(const std::string& list, const std::string& name) {
  for (absl::string_view line : absl::StrSplit(list, '\n')) {
    std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.size() == 3 && words[1] == name) return words[2];
  }
  return "missing";
}

std::string Listed(const std::string& pin_dir, const std::string& name) {
  const CliResult r = RunKestrel({"syscalls", "list", "--pin-dir", pin_dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return SyscallState(r.out, name);
}

// The lines of `lines` that contain `needle`.
std::vector<std::string> With(const std::vector<std::string>& lines, const std::string& needle) {
  std::vector<std::string> found;
  for (const std::string& l : lines) {
    if (absl::StrContains(l, needle)) found.push_back(l);
  }
  return found;
}

// The value of "key": in a one-line JSON object, as written (a string
// with its quotes, or a bare number).
std::string JsonValue(const std::string& json, const std::string& key) {
  const std::string k = absl::StrCat("\"", key, "\":");
  const size_t at = json.find(k);
  if (at == std::string::npos) return "<absent>";
  size_t start = at + k.size(), end = start;
  if (json[start] == '"') {
    end = start + 1;
    while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
    return json.substr(start, end + 1 - start);
  }
  if (json[start] == '[' || json[start] == '{') {
    end = json.find(json[start] == '[' ? ']' : '}', start);
    return json.substr(start, end + 1 - start);
  }
  end = json.find_first_of(",}", start);
  return json.substr(start, end - start);
}

class RunLiveTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root"; }
  RunTempDir dir_;
  LoopbackListener listener_;
  const std::string mark_ = absl::StrCat("kestrel-run-e2e-", getpid());
};

TEST_F(RunLiveTest, RealTriggersRaiseExactJsonAlerts) {
  const std::string rules = dir_.File("rules.yaml");
  // pmatch with a glob component, as Falco matches it: one path component.
  const std::string glob_rule = absl::StrCat(
      "- rule: Open by glob\n  desc: d\n  condition: evt.type = openat and fd.name pmatch (",
      dir_.path(), "/no-such, ", dir_.path(), "/g*b/inner)\n  output: glob %fd.name\n",
      "  priority: INFO\n");
  // A failed call reaches a rule that can match one, as in Falco.
  const std::string failed_rule = absl::StrCat(
      "- rule: Failed open\n  desc: d\n  condition: evt.type = openat and evt.arg.name = ",
      dir_.File("missing"), "\n  output: failed %fd.name %evt.res\n  priority: INFO\n");
  WriteWhole(rules, OpenRule(dir_.path()) + ExecRule(mark_) + ConnectRule(listener_.port()) +
                        NamedConnectRule(listener_.port()) + glob_rule + failed_rule);
  // Every rule a connect matches alerts: the marker and the named one.
  KestrelProcess run(
      {"run", "-r", rules, "--no-pin", "-o", "json_output=true", "-o", "rule_matching=all"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));

  const std::string opened = dir_.File("mark-open");
  OpenFile(opened);
  const std::optional<std::string> open_alert = run.WaitForLine(opened + "\"", kAlertTimeout);
  ExecTrue(mark_);
  const std::optional<std::string> exec_alert = run.WaitForLine(mark_, kAlertTimeout);
  const uint16_t client_port = listener_.Connect();
  const std::optional<std::string> connect_alert = run.WaitForLine("Connect marker", kAlertTimeout);
  const std::optional<std::string> named_alert = run.WaitForLine("Connect by name", kAlertTimeout);
  std::filesystem::create_directories(dir_.File("glo/inner"));
  OpenFile(dir_.File("glo/inner/file"));  // "glo" is no match for g*b: no alert
  std::filesystem::create_directories(dir_.File("gloob/inner"));
  OpenFile(dir_.File("gloob/inner/file"));
  const std::optional<std::string> glob_alert = run.WaitForLine("Open by glob", kAlertTimeout);
  EXPECT_LT(open(dir_.File("missing").c_str(), O_RDONLY), 0);
  const std::optional<std::string> failed_alert = run.WaitForLine("Failed open", kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;

  ASSERT_TRUE(open_alert) << r.out << r.err;
  EXPECT_EQ(JsonValue(*open_alert, "rule"), "\"Open marker\"");
  EXPECT_EQ(JsonValue(*open_alert, "priority"), "\"Warning\"");
  EXPECT_EQ(JsonValue(*open_alert, "source"), "\"syscall\"");
  EXPECT_EQ(JsonValue(*open_alert, "fd.name"), absl::StrCat("\"", opened, "\""));
  EXPECT_EQ(JsonValue(*open_alert, "proc.name"), "\"kestrel_e2e_tes\"");
  EXPECT_EQ(JsonValue(*open_alert, "proc.pid"), absl::StrCat(getpid()));
  EXPECT_EQ(JsonValue(*open_alert, "tags"), "[\"files\",\"test\"]");
  EXPECT_TRUE(absl::StrContains(
      *open_alert, absl::StrCat("opened ", opened, " by kestrel_e2e_tes (pid ", getpid(), ")")))
      << *open_alert;

  ASSERT_TRUE(exec_alert) << r.out << r.err;
  EXPECT_EQ(JsonValue(*exec_alert, "rule"), "\"Exec marker\"");
  EXPECT_EQ(JsonValue(*exec_alert, "priority"), "\"Notice\"");
  EXPECT_EQ(JsonValue(*exec_alert, "proc.cmdline"), absl::StrCat("\"true ", mark_, "\""));
  char exe[PATH_MAX];
  ASSERT_NE(realpath("/bin/true", exe), nullptr);
  EXPECT_EQ(JsonValue(*exec_alert, "proc.exepath"), absl::StrCat("\"", exe, "\""));

  ASSERT_TRUE(connect_alert) << r.out << r.err;
  EXPECT_EQ(JsonValue(*connect_alert, "rule"), "\"Connect marker\"");
  EXPECT_EQ(JsonValue(*connect_alert, "priority"), "\"Critical\"");
  EXPECT_EQ(JsonValue(*connect_alert, "fd.name"),
            absl::StrCat("\"127.0.0.1:", client_port, "->127.0.0.1:", listener_.port(), "\""));
  ASSERT_TRUE(named_alert) << r.out << r.err;
  EXPECT_EQ(JsonValue(*named_alert, "fd.sip.name"), "\"localhost\"");
  ASSERT_TRUE(glob_alert) << r.out << r.err;
  EXPECT_EQ(JsonValue(*glob_alert, "fd.name"),
            absl::StrCat("\"", dir_.File("gloob/inner/file"), "\""));
  ASSERT_TRUE(failed_alert) << r.out << r.err;
  EXPECT_EQ(JsonValue(*failed_alert, "evt.res"), "\"ENOENT\"");
  EXPECT_EQ(JsonValue(*failed_alert, "fd.name"), absl::StrCat("\"", dir_.File("missing"), "\""));
  // Each trigger alerted once.
  EXPECT_EQ(With(run.lines(), opened + "\"").size(), 1u);
  EXPECT_EQ(With(run.lines(), "Exec marker").size(), 1u);
  EXPECT_EQ(With(run.lines(), "Open by glob").size(), 1u);
  EXPECT_EQ(With(run.lines(), "Connect marker").size(), 1u);
  // The final stats: nothing dropped, the alerts by priority.
  EXPECT_TRUE(absl::StrContains(r.err, "dropped 0 (ring full 0,")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "(Critical 1, Warning ")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, ", Notice 1, Informational 3);")) << r.err;
}

// Falco's -M and -P: the run stops by itself after the duration, as after
// a SIGINT, and its pid is in the pid file while it runs, gone after.
TEST_F(RunLiveTest, DurationStopsTheRunAndThePidFileNamesIt) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  const std::string pidfile = dir_.File("kestrel.pid");
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-M", "3", "-P", pidfile});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  std::stringstream pid;
  pid << std::ifstream(pidfile).rdbuf();
  EXPECT_EQ(pid.str(), absl::StrCat(run.pid(), "\n"));
  const auto started = std::chrono::steady_clock::now();
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_TRUE(absl::StrContains(r.err, "records attempted")) << r.err;  // the final stats
  EXPECT_FALSE(std::filesystem::exists(pidfile));
  // A pid file nowhere to be written is a usage error, before anything starts.
  const CliResult bad = RunKestrel({"run", "-r", rules, "--no-pin", "-P", "/nonexistent/k.pid"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(bad.err, "-P /nonexistent/k.pid: cannot write the pid file: "))
      << bad.err;
}

// evt.is_open_create through a rule: an open that creates its file alerts,
// the same open of the file once it exists does not.
TEST_F(RunLiveTest, OpenThatCreatesItsFileAlertsOnce) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()) +
                        absl::StrCat("- rule: Created file\n  desc: d\n  condition: evt.type = "
                                     "openat and evt.is_open_create = true and fd.name startswith ",
                                     dir_.File("new-"),
                                     "\n  output: created %fd.name create=%evt.is_open_create\n"
                                     "  priority: INFO\n"));
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o", "rule_matching=all"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  OpenFile(dir_.File("new-a"));  // O_CREAT, created
  OpenFile(dir_.File("new-a"));  // O_CREAT, already there
  OpenFile(dir_.File("new-b"));
  ASSERT_TRUE(run.WaitForLine("created " + dir_.File("new-b"), kAlertTimeout));
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(With(run.lines(), "created " + dir_.File("new-a") + " create=true").size(), 1u)
      << r.out;
  EXPECT_EQ(With(run.lines(), "created " + dir_.File("new-b") + " create=true").size(), 1u)
      << r.out;
}

// The syscall-set test of issue 19: a rule on openat only, the table seen
// through the pin; the rules file rewritten to a rule on connect, the table
// changes live; an openat right before the reload and a connect right after
// both alert, and the probe dropped nothing.
TEST_F(RunLiveTest, ReloadChangesTheProbesSyscallsLiveWithNoEventLost) {
  PinDirGuard pin(TestPinDir());
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  // openat and connect are both state syscalls: a custom base set (Falco's
  // base_syscalls.custom_set replaces the state's) leaves the rules alone
  // in charge of them (socket stays, so connect knows its socket).
  KestrelProcess run({"run", "-r", rules, "--pin-dir", pin.dir(), "-o", "json_output=true", "-o",
                      "base_syscalls.custom_set=[execve, socket]"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  EXPECT_EQ(Listed(pin.dir(), "openat"), "on");
  EXPECT_EQ(Listed(pin.dir(), "execve"), "on");  // the custom set's
  EXPECT_EQ(Listed(pin.dir(), "close"), "off");
  EXPECT_EQ(Listed(pin.dir(), "connect"), "off");

  const std::string before = dir_.File("mark-before-reload");
  OpenFile(before);
  WriteWhole(rules, ConnectRule(listener_.port()));
  // The reload is live once connect is on.
  const auto deadline = std::chrono::steady_clock::now() + kAlertTimeout;
  while (Listed(pin.dir(), "connect") != "on" && std::chrono::steady_clock::now() < deadline) {
    usleep(50'000);
  }
  EXPECT_EQ(Listed(pin.dir(), "connect"), "on");
  EXPECT_EQ(Listed(pin.dir(), "openat"), "off");
  listener_.Connect();
  const std::optional<std::string> connect_alert = run.WaitForLine("Connect marker", kAlertTimeout);
  // After the reload an openat no longer alerts.
  const std::string after = dir_.File("mark-after-reload");
  OpenFile(after);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(connect_alert) << r.out << r.err;
  EXPECT_EQ(With(run.lines(), before + "\"").size(), 1u) << r.out;
  EXPECT_EQ(With(run.lines(), after + "\"").size(), 0u) << r.out;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: rules reloaded: 1 rules loaded (1 evaluated), "
                                "0 skipped; syscalls +connect -openat\n"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "dropped 0 (ring full 0,")) << r.err;
  EXPECT_FALSE(PathExists(pin.dir())) << "the pin outlived kestrel run";
}

// A rule that prints the kernel-resolved path gets it: opened through a
// symlink, fd.name is the name asked for and evt.arg.path the file. A reload
// to rules that read no path has the probe omit it from then on.
TEST_F(RunLiveTest, OpenPathsFollowTheRulesThroughAReload) {
  const std::string target = dir_.File("target");
  WriteWhole(target, "");
  const std::string link = dir_.File("mark-link");
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  const std::string rules = dir_.File("rules.yaml");
  auto open_rule = [&](const std::string& output) {
    return absl::StrCat("- rule: Open marker\n  desc: x\n  condition: evt.type = openat and ",
                        "fd.name startswith \"", dir_.path(), "/mark\"\n  output: ", output,
                        "\n  priority: WARNING\n");
  };
  WriteWhole(rules, open_rule("kept %fd.name path=%evt.arg.path"));
  KestrelProcess run({"run", "-r", rules, "--no-pin"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  OpenFile(link);
  const std::optional<std::string> kept = run.WaitForLine(link + " path=", kAlertTimeout);

  WriteWhole(rules, open_rule("plain %fd.name"));
  std::optional<std::string> plain;
  const auto deadline = std::chrono::steady_clock::now() + kAlertTimeout;
  for (int i = 0; !plain && std::chrono::steady_clock::now() < deadline; ++i) {
    const std::string mark = dir_.File(absl::StrCat("mark-after-", i));
    OpenFile(mark);
    plain = run.WaitForLine(absl::StrCat("plain ", mark), std::chrono::milliseconds(300));
  }
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(kept) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(*kept, absl::StrCat("kept ", link, " path=", target))) << *kept;
  EXPECT_TRUE(plain) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "drop_failed off, open paths kept")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "syscalls no change; open paths omitted\n")) << r.err;
  // The engine's own change is not another process's.
  EXPECT_FALSE(absl::StrContains(r.err, "was changed by another process")) << r.err;
}

// A rules file that does not load leaves the running rules in place.
TEST_F(RunLiveTest, ABrokenReloadKeepsTheOldRules) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, OpenRule(dir_.path()));
  KestrelProcess run({"run", "-r", rules, "--no-pin", "-o", "json_output=true"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  WriteWhole(rules,
             "- rule: Broken\n  desc: x\n  condition: evt.type = openat and\n"
             "  output: x\n  priority: WARNING\n");
  kill(run.pid(), SIGHUP);  // and a SIGHUP, which reloads the same way
  usleep(500'000);
  const std::string still = dir_.File("mark-still");
  OpenFile(still);
  const std::optional<std::string> alert = run.WaitForLine(still + "\"", kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err,
                                "kestrel run: reload failed, the current rules keep "
                                "running: "))
      << r.err;
}

// An alert with its times blanked: "time", evt.time and the time of day
// that starts "output".
std::string WithoutTimes(const std::string& alert) {
  static const std::regex kTimes(R"re("time":"[^"]*"|"evt\.time":[0-9]+|"output":"[0-9:.]+: )re");
  return std::regex_replace(alert, kTimes, "<time>");
}

std::vector<std::string> WithoutTimes(const std::vector<std::string>& alerts) {
  std::vector<std::string> out;
  for (const std::string& a : alerts) out.push_back(WithoutTimes(a));
  return out;
}

// `capture -w` records while `run` alerts live; `run --replay` of the file
// gives the same alerts, byte for byte but for their times: the file
// carries the system snapshot taken when its probe attached, and that
// probe's boot time, which libpman reads from the kernel as the live run's
// probe did (the same value in every process); but each of the two probes
// stamps a record when its own program runs, microseconds apart.
TEST_F(RunLiveTest, ReplayOfACaptureFileGivesTheLiveAlerts) {
  const std::string rules = dir_.File("rules.yaml");
  // pmatch with a glob component, as Falco matches it: one path component.
  const std::string glob_rule = absl::StrCat(
      "- rule: Open by glob\n  desc: d\n  condition: evt.type = openat and fd.name pmatch (",
      dir_.path(), "/no-such, ", dir_.path(), "/g*b/inner)\n  output: glob %fd.name\n",
      "  priority: INFO\n");
  WriteWhole(rules, OpenRule(dir_.path()) + ExecRule(mark_) + ConnectRule(listener_.port()) +
                        NamedConnectRule(listener_.port()) + glob_rule);
  KestrelProcess run(
      {"run", "-r", rules, "--no-pin", "-o", "json_output=true", "-o", "rule_matching=all"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  const std::string file = dir_.File("capture.kcap");
  PinDirGuard pin(TestPinDir());
  // Only the rules' syscalls (and the state's, which capture adds): on a
  // loaded machine a capture of every syscall may drop the very records.
  KestrelProcess capture(
      {"capture", "-w", file, "--pin-dir", pin.dir(), "--syscalls", "openat,execve,connect"});
  // Pinned just before it attaches.
  const auto deadline = std::chrono::steady_clock::now() + kAlertTimeout;
  while (!PathExists(pin.dir()) && std::chrono::steady_clock::now() < deadline) usleep(50'000);
  usleep(1'000'000);

  const std::string opened = dir_.File("mark-replayed");
  OpenFile(opened);
  ExecTrue(mark_);
  listener_.Connect();
  const std::optional<std::string> last = run.WaitForLine("Connect marker", kAlertTimeout);
  ASSERT_TRUE(run.WaitForLine(opened + "\"", std::chrono::seconds(1)) ||
              !With(run.lines(), opened + "\"").empty());
  capture.Signal(SIGINT);
  const CliResult captured = capture.Wait();
  EXPECT_EQ(captured.exit_code, 0) << captured.err;
  run.Signal(SIGINT);
  const CliResult live = run.Wait();
  EXPECT_EQ(live.exit_code, 0) << live.err;
  ASSERT_TRUE(last);

  const CliResult replay = RunKestrel(
      {"run", "-r", rules, "--replay", file, "-o", "json_output=true", "-o", "rule_matching=all"});
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  std::vector<std::string> replayed = absl::StrSplit(replay.out, '\n', absl::SkipEmpty());
  for (const std::string& needle :
       {opened + "\"", std::string("Exec marker"), std::string("Connect marker"),
        std::string("Connect by name")}) {
    const std::vector<std::string> live_alerts = With(run.lines(), needle);
    ASSERT_EQ(live_alerts.size(), 1u) << needle << "\n" << live.out;
    EXPECT_EQ(WithoutTimes(With(replayed, needle)), WithoutTimes(live_alerts))
        << needle << "\n"
        << replay.out << replay.err;
  }
}

}  // namespace
}  // namespace kestrel::e2e
