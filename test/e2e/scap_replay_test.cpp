// libscap .scap files through the verbs: `kestrel capture -r FILE.scap`
// prints its events and `kestrel run --replay FILE.scap` gives exact alerts
// for a file written here (test/support/scap_writer.h), the processes and
// descriptors that predate the capture named from its process and fd lists.
// A cut file gives the alerts before the cut, one line and exit code 1.
// With KESTREL_SCAP_SAMPLES_DIR naming a folder of libs' sample captures
// (test/libsinsp_e2e/resources/captures/*.scap in falcosecurity/libs, not
// committed), each replays with no error, and with KESTREL_FALCO_RULES_DIR
// naming a folder with Falco's falco_rules.yaml, through Falco's rules.
#include <gtest/gtest.h>

#include <cstdio>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "../support/json_value.h"
#include "../support/scap_writer.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

using test::ScapInt;
using test::ScapStr;

// 2023-11-14T22:13:20Z, and the first event 5 s later.
constexpr uint64_t kScapBoot = 1'700'000'000'000'000'000;
constexpr uint64_t kScapT0 = kScapBoot + 5'000'000'000;

constexpr char kScapRules[] = R"yaml(- rule: Shadow opened
  desc: a process opened /etc/shadow
  condition: evt.type = openat and fd.name = /etc/shadow
  output: "%proc.name (%proc.cmdline, child of %proc.pname) opened %fd.name as fd %evt.rawres"
  priority: WARNING
- rule: Passwd read
  desc: a descriptor open before the capture was read
  condition: evt.type = read and fd.name = /etc/passwd
  output: "%proc.name read %evt.rawres bytes of %fd.name (fd %fd.num)"
  priority: NOTICE
)yaml";

// bash (pid 100, started before the capture, child of init) holds
// /etc/passwd open as fd 3; it opens /etc/shadow, context-switches, and
// reads fd 3. `cut_at` (optional) gets the offset of the read's block.
std::string ScapFile(size_t* read_at = nullptr) {
  test::ScapWriter w;
  w.SectionHeader().MachineInfo("scaphost", kScapBoot, 2);
  test::ScapProcess init{.tid = 1, .pid = 1, .comm = "systemd", .exe = "/sbin/init"};
  test::ScapProcess bash{.tid = 100,
                         .pid = 100,
                         .ptid = 1,
                         .comm = "bash",
                         .exe = "bash",
                         .exepath = "/usr/bin/bash",
                         .args = {"-l"},
                         .cwd = "/root/"};
  w.ProcessList({init, bash});
  w.FdList(100, {test::ScapFd{
                    .fd = 3, .ino = 11, .name = "/etc/passwd", .open_flags = test::kPpmORdonly}});
  w.Event(test::kScapOpenatX, kScapT0 + 1, 100,
          {ScapInt<int64_t>(5), ScapInt<int64_t>(-100), ScapStr("/etc/shadow"),
           ScapInt<uint32_t>(test::kPpmORdonly), ScapInt<uint32_t>(0), ScapInt<uint32_t>(0x801),
           ScapInt<uint64_t>(42)});
  w.Event(test::kScapSwitchE, kScapT0 + 2, 100,
          {ScapInt<int64_t>(1), ScapInt<uint64_t>(0), ScapInt<uint64_t>(0), ScapInt<uint32_t>(0),
           ScapInt<uint32_t>(0), ScapInt<uint32_t>(0)});
  if (read_at != nullptr) *read_at = w.size();
  w.Event(test::kScapReadX, kScapT0 + 3, 100,
          {ScapInt<int64_t>(4), std::string("root"), ScapInt<int64_t>(3), ScapInt<uint32_t>(4)});
  return w.bytes();
}

std::string ScapAlertField(const std::string& json, const std::string& key) {
  const std::optional<testing::JsonValue> alert = testing::JsonValue::Parse(json);
  if (!alert) return "<not json>";
  const testing::JsonValue* v = alert->Find(key);
  return v == nullptr ? "<absent>" : v->text;
}

class ScapReplayTest : public ::testing::Test {
 protected:
  void SetUp() override { WriteWhole(rules_, kScapRules); }
  CliResult Replay(const std::string& file, const std::string& rules) {
    return RunKestrel({"run", "-r", rules, "--replay", file, "-o", "json_output=true"});
  }
  RunTempDir dir_;
  const std::string rules_ = dir_.File("rules.yaml");
};

TEST_F(ScapReplayTest, RunReplayGivesExactAlerts) {
  const std::string file = dir_.File("sample.scap");
  WriteWhole(file, ScapFile());
  const CliResult r = Replay(file, rules_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> alerts = Lines(r.out);
  ASSERT_EQ(alerts.size(), 2u) << r.out << r.err;
  EXPECT_EQ(ScapAlertField(alerts[0], "rule"), "Shadow opened");
  EXPECT_EQ(ScapAlertField(alerts[0], "time"), "2023-11-14T22:13:25.000000001Z");
  EXPECT_EQ(ScapAlertField(alerts[0], "hostname"), "scaphost");
  EXPECT_EQ(ScapAlertField(alerts[0], "output"),
            "22:13:25.000000001: Warning bash (bash -l, child of systemd) opened /etc/shadow as "
            "fd 5");
  EXPECT_EQ(ScapAlertField(alerts[1], "rule"), "Passwd read");
  EXPECT_EQ(ScapAlertField(alerts[1], "time"), "2023-11-14T22:13:25.000000003Z");
  EXPECT_EQ(ScapAlertField(alerts[1], "output"),
            "22:13:25.000000003: Notice bash read 4 bytes of /etc/passwd (fd 3)");
  EXPECT_TRUE(absl::StrContains(r.err, "1 event of 1 type not known to Kestrel: switch 1"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "alerts 2 (Warning 1, Notice 1)")) << r.err;
}

TEST_F(ScapReplayTest, CaptureReadPrintsTheEvents) {
  const std::string file = dir_.File("sample.scap");
  WriteWhole(file, ScapFile());
  const CliResult r = RunKestrel({"capture", "-r", file, "--all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_TRUE(absl::StartsWith(lines[0], "22:13:25.000000001 bash 100 openat fd=5 "));
  EXPECT_TRUE(absl::StrContains(lines[0], "name=\"/etc/shadow\" flags=O_RDONLY")) << lines[0];
  EXPECT_EQ(lines[1], "22:13:25.000000003 bash 100 read res=4 fd=3 size=4 data=\"root\"");
  EXPECT_TRUE(absl::StrContains(r.err, "1 event of 1 type not known to Kestrel: switch 1"))
      << r.err;
}

TEST_F(ScapReplayTest, CutFileGivesTheAlertsBeforeItOneLineAndExitsOne) {
  size_t read_at = 0;
  const std::string bytes = ScapFile(&read_at);
  const std::string cut = dir_.File("cut.scap");
  WriteWhole(cut, bytes.substr(0, bytes.size() - 6));
  for (const bool run : {true, false}) {
    SCOPED_TRACE(run ? "run --replay" : "capture -r");
    const CliResult r = run ? Replay(cut, rules_) : RunKestrel({"capture", "-r", cut});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    if (run) {
      ASSERT_EQ(Lines(r.out).size(), 1u) << r.out;
      EXPECT_EQ(ScapAlertField(Lines(r.out)[0], "rule"), "Shadow opened");
    }
    std::vector<std::string> damage;
    for (const std::string& line : Lines(r.err)) {
      if (absl::StrContains(line, " is damaged: ")) damage.push_back(line);
    }
    ASSERT_EQ(damage.size(), 1u) << r.err;
    EXPECT_TRUE(absl::StrContains(damage[0], cut)) << damage[0];
    EXPECT_TRUE(
        absl::StrContains(damage[0], absl::StrCat("the block at byte ", read_at, " is cut short")))
        << damage[0];
  }
}

// The libs samples, when a folder of them is given.
TEST_F(ScapReplayTest, LibsSampleCapturesReplay) {
  const char* samples = std::getenv("KESTREL_SCAP_SAMPLES_DIR");
  if (samples == nullptr) {
    // Optional, as the Falco rules suites are: a skip would fail the suite.
    std::printf("KESTREL_SCAP_SAMPLES_DIR is not set: libs' sample captures not replayed\n");
    return;
  }
  const char* falco = std::getenv("KESTREL_FALCO_RULES_DIR");
  const std::string any_rules = dir_.File("any.yaml");
  WriteWhole(any_rules, R"yaml(- rule: Any open
  desc: every open of a file
  condition: evt.type in (open, openat, openat2) and fd.name != ""
  output: "%proc.name opened %fd.name"
  priority: DEBUG
- rule: Any connect
  desc: every connect
  condition: evt.type = connect and evt.rawres = 0
  output: "%proc.name connected %fd.name"
  priority: DEBUG
)yaml");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(samples)) {
    if (entry.path().extension() != ".scap") continue;
    ++files;
    const std::string file = entry.path().string();
    SCOPED_TRACE(file);
    const CliResult dump = RunKestrel({"capture", "-r", file, "--all"});
    EXPECT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_GT(Lines(dump.out).size(), 10u) << dump.err;
    const CliResult run = Replay(file, any_rules);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(absl::StrContains(run.err, "kestrel run: events ")) << run.err;
    std::cout << "[sample] " << entry.path().filename().string() << ": " << Lines(dump.out).size()
              << " events printed; run: " << Lines(run.out).size() << " alerts\n"
              << run.err;
    const std::vector<std::string> alerts = Lines(run.out);
    for (size_t i = 0; i < alerts.size() && i < 3; ++i) {
      std::cout << "  " << ScapAlertField(alerts[i], "output") << "\n";
    }
    if (falco != nullptr) {
      const CliResult f = Replay(file, absl::StrCat(falco, "/falco_rules.yaml"));
      EXPECT_EQ(f.exit_code, 0) << f.err;
      std::cout << "[sample+falco rules] " << entry.path().filename().string() << ": "
                << Lines(f.out).size() << " alerts\n";
      for (const std::string& alert : Lines(f.out)) {
        std::cout << "  " << ScapAlertField(alert, "rule") << ": "
                  << ScapAlertField(alert, "output") << "\n";
      }
    }
  }
  EXPECT_GT(files, 0) << "no .scap file in " << samples;
}

}  // namespace
}  // namespace kestrel::e2e
