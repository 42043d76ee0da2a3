// `kestrel run` with a `capture: true` rule: the capture file holds the
// records from before the alert (the flight recorder's window) and those of
// capture_duration after it, not later ones; it is 0600, named as Falco
// names its captures, read back by `kestrel capture -r`; the config keys
// take effect.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
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

std::string CaptureRule(const std::string& trigger) {
  return absl::StrCat(
      "- rule: Capture marker\n"
      "  desc: the test opened its capture trigger\n"
      "  condition: evt.type = openat and fd.name = \"",
      trigger,
      "\"\n"
      "  output: capture trigger %fd.name\n"
      "  priority: ERROR\n"
      "  capture: true\n"
      "  capture_duration: 1000\n");
}

// The files in `dir` whose names start with `prefix`.
std::vector<std::string> FilesStartingWith(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& name : DirEntries(dir)) {
    if (name.starts_with(prefix)) found.push_back(dir + "/" + name);
  }
  return found;
}

class RunCaptureTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root"; }
  RunTempDir dir_;
};

TEST_F(RunCaptureTest, CaptureHoldsTheWindowBeforeTheAlertAndTheDurationAfter) {
  const std::string rules = dir_.File("rules.yaml");
  const std::string trigger = dir_.File("trigger");
  WriteWhole(rules, OpenRule(dir_.path()) + CaptureRule(trigger));
  // Falco's keys from the config file, Kestrel's window from -o.
  const std::string config = dir_.File("kestrel.yaml");
  WriteWhole(config, absl::StrCat("capture:\n"
                                  "  enabled: true\n"
                                  "  path_prefix: ",
                                  dir_.path(),
                                  "/cap\n"
                                  "  mode: rules\n"
                                  "  default_duration: 60000\n"));
  KestrelProcess run({"run", "-r", rules, "-c", config, "--no-pin", "-o", "json_output=true", "-o",
                      "capture.window_seconds=30", "-o", "capture.window_bytes=8388608"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));

  const std::string before = dir_.File("file-a-before");
  const std::string after = dir_.File("file-b-after");
  const std::string late = dir_.File("file-c-late");
  OpenFile(before);
  OpenFile(trigger);
  const std::optional<std::string> alert = run.WaitForLine("Capture marker", kAlertTimeout);
  OpenFile(after);  // well within the rule's 1000 ms
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  OpenFile(late);  // past it (the config's 60 s default is not the rule's)
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(alert) << r.out << r.err;

  // One capture: the readiness alerts' rule does not capture.
  const std::vector<std::string> files = FilesStartingWith(dir_.path(), "cap_");
  ASSERT_EQ(files.size(), 1u) << r.err;
  const std::string& file = files[0];
  EXPECT_TRUE(file.ends_with(".kcap")) << file;
  // PREFIX_<20-digit alert time>_<20-digit record number>.kcap
  EXPECT_EQ(file.size(), dir_.path().size() + std::string("/cap_").size() + 20 + 1 + 20 + 5)
      << file;
  struct stat st {};
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat("capture ", file, " written: "))) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "; captures written 1 failed 0")) << r.err;

  const CliResult read = RunKestrel({"capture", "-r", file});
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_TRUE(absl::StrContains(read.out, before)) << read.out;
  EXPECT_TRUE(absl::StrContains(read.out, trigger)) << read.out;
  EXPECT_TRUE(absl::StrContains(read.out, after)) << read.out;
  EXPECT_FALSE(absl::StrContains(read.out, late)) << read.out;
  // In the order they happened.
  EXPECT_LT(read.out.find(before), read.out.find(trigger));
  EXPECT_LT(read.out.find(trigger), read.out.find(after));
  for (const std::string& f : files) unlink(f.c_str());
}

TEST_F(RunCaptureTest, CaptureKeysAreCheckedBeforeAnythingStarts) {
  const std::string rules = dir_.File("rules.yaml");
  WriteWhole(rules, CaptureRule(dir_.File("trigger")));
  CliResult r = RunKestrel({"run", "-r", rules, "--dry-run", "-o", "capture.enabled=true", "-o",
                            absl::StrCat("capture.path_prefix=", dir_.path(), "/none/cap")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "is not a directory")) << r.err;
  r = RunKestrel({"run", "-r", rules, "--dry-run", "-o", "capture.mode=some_rules"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "capture.mode")) << r.err;
  r = RunKestrel({"run", "-r", rules, "--dry-run", "-o", "capture.window_bytes=1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "capture.window_bytes")) << r.err;
  r = RunKestrel({"run", "-r", rules, "--dry-run", "-o", "capture.window_seconds=0"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunKestrel({"run", "-r", rules, "--dry-run", "-o", "capture.enabled=true", "-o",
                  absl::StrCat("capture.path_prefix=", dir_.path(), "/cap"), "-o",
                  "capture.mode=all_rules", "-o", "capture.default_duration=250", "-o",
                  "capture.max_file_size_mb=10"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
