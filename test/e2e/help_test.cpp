// The entry point's own contract: usage on no command, exit codes for help
// and for an unknown command.
#include <gtest/gtest.h>

#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

TEST(HelpTest, NoCommandPrintsUsageAndExits2) {
  const CliResult r = RunKestrel({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage: kestrel"), std::string::npos) << r.err;
}

TEST(HelpTest, HelpExits0OnStdout) {
  const CliResult r = RunKestrel({"help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("capture"), std::string::npos) << r.out;
}

TEST(HelpTest, UnknownCommandExits2) {
  const CliResult r = RunKestrel({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
