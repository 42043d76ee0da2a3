// The same failure gives the same exit code whichever verb meets it, as the
// README's table says: 2 for a bad command line, config or rules file
// (nothing was started), 1 when the run itself fails (a capture file that
// is damaged, no pinned capture). None of these loads the probe.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

class ExitCodesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/kestrel-exit-codes.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    Write("bad_rules.yaml", "- rule: no output\n  condition: evt.type = openat\n");
    Write("bad_config.yaml", "priority: [\n");
    Write("not_a_capture.kcap", "garbage");
  }
  void TearDown() override {
    for (const char* f : {"bad_rules.yaml", "bad_config.yaml", "not_a_capture.kcap"}) {
      unlink(Path(f).c_str());
    }
    rmdir(dir_.c_str());
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name)) << text;
  }

  // Every command line of `cases` exits with `code`.
  void ExpectAll(int code, const std::vector<std::vector<std::string>>& cases) {
    for (const std::vector<std::string>& args : cases) {
      const CliResult r = RunKestrel(args, std::chrono::seconds(30));
      std::string line = "kestrel";
      for (const std::string& a : args) line += " " + a;
      EXPECT_EQ(r.exit_code, code) << line << "\n" << r.err;
    }
  }

  std::string dir_;
};

TEST_F(ExitCodesTest, BadRulesFileIsTwoEverywhere) {
  const std::string rules = Path("bad_rules.yaml");
  ExpectAll(2, {{"run", "-r", rules, "--dry-run"},
                {"run", "-r", rules, "--no-pin"},
                {"rules", "validate", rules}});
}

TEST_F(ExitCodesTest, BadConfigIsTwoEverywhere) {
  const std::string config = Path("bad_config.yaml");
  ExpectAll(2, {{"run", "-c", config, "--dry-run"},
                {"run", "-c", config, "--no-pin"},
                {"rules", "validate", "-c", config},
                {"run", "-o", "no_such_key=1", "--dry-run"},
                {"rules", "validate", "-o", "no_such_key=1"}});
}

TEST_F(ExitCodesTest, MissingFileArgumentIsTwoEverywhere) {
  const std::string missing = Path("missing");
  ExpectAll(2, {{"run", "--replay", missing},
                {"capture", "-r", missing},
                {"run", "-r", missing, "--dry-run"}});
}

TEST_F(ExitCodesTest, DamagedCaptureFileIsOneEverywhere) {
  const std::string damaged = Path("not_a_capture.kcap");
  ExpectAll(1, {{"run", "--replay", damaged}, {"capture", "-r", damaged}});
}

TEST_F(ExitCodesTest, NoPinnedCaptureIsOneEverywhere) {
  const std::string nowhere = Path("no-pin");
  ExpectAll(1, {{"syscalls", "enable", "openat", "--pin-dir", nowhere},
                {"syscalls", "disable", "openat", "--pin-dir", nowhere},
                {"settings", "get", "--pin-dir", nowhere}});
}

}  // namespace
}  // namespace kestrel::e2e
