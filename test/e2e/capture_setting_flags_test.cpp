// `kestrel capture` takes the settings table's flags (--snaplen ...), with
// the table's bounds, through the binary.
#include <gtest/gtest.h>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

TEST(CaptureSettingFlagsTest, HelpListsTheTablesFlagsWithTheirBounds) {
  const CliResult r = RunKestrel({"capture", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--snaplen N"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(0..16384, default 80)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--drop-failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--sampling-ratio N"), std::string::npos) << r.out;
}

TEST(CaptureSettingFlagsTest, AValuePastABoundIsAUsageError) {
  CliResult r = RunKestrel({"capture", "--snaplen", "16385"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "kestrel capture: --snaplen: 16385 is above the maximum 16384");
  r = RunKestrel({"capture", "--sampling-ratio", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sampling-ratio: 0 is below the minimum 1"), std::string::npos) << r.err;
  r = RunKestrel({"capture", "--drop-failed=1"});
  EXPECT_EQ(r.exit_code, 2) << "a switch takes no value";
}

TEST(CaptureSettingFlagsTest, ABoundValueRuns) {
  const CliResult r = RunKestrel({"capture", "--snaplen", "16384", "--drop-failed", "--syscalls",
                                  "getppid", "--duration", "0.2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
