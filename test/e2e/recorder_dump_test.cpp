// `kestrel dump` output through the binary: exact records of a known
// syscall in text and JSON, with a shared ring and with --per-cpu, and
// dump leaving its own syscalls out.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../support/strict_json.h"
#include "absl/strings/str_split.h"
#include "getppid_child.h"
#include "recorder_pin_root.h"

namespace kestrel::e2e {
namespace {

class RecorderDumpTest : public ::testing::TestWithParam<bool> {};

TEST_P(RecorderDumpTest, TextShowsEachGetppidOfAChildWithItsPidAndResult) {
  const bool per_cpu = GetParam();
  RecorderPinRoot root;
  std::vector<std::string> extra = {"--size", "256K", "--syscalls", "getppid"};
  if (per_cpu) extra.push_back("--per-cpu");
  const CliResult start = RunKestrel(root.Args({"recorder", "start"}, extra));
  ASSERT_EQ(start.exit_code, 0) << start.err;

  constexpr int kCalls = 7;
  const std::string child = std::to_string(ChildCallingGetppid(kCalls));
  const std::string me = std::to_string(getpid());
  const CliResult dump = RunKestrel(root.Args({"dump"}));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  const std::vector<std::string> calls =
      LinesWith(dump.out, {" " + child + " getppid(", ") = " + me});
  EXPECT_EQ(calls.size(), static_cast<size_t>(kCalls)) << dump.out;
  EXPECT_EQ(LinesWith(dump.out, {" " + child + " "}).size(), static_cast<size_t>(kCalls))
      << dump.out;

  const CliResult json = RunKestrel(root.Args({"dump"}, {"--json"}));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  for (const std::string& line : Lines(json.out)) {
    EXPECT_TRUE(kestrel::testing::StrictJson::Check(line).empty()) << line;
  }
  EXPECT_EQ(LinesWith(json.out, {"\"tid\":" + child + ",\"pid\":" + child + ",",
                                 "\"syscall\":\"getppid\"", "\"ret\":" + me + "}"})
                .size(),
            static_cast<size_t>(kCalls))
      << json.out;

  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
}

INSTANTIATE_TEST_SUITE_P(SharedAndPerCpu, RecorderDumpTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "PerCpu" : "Shared";
                         });

TEST(RecorderDumpSelfTest, DumpLeavesItsOwnSyscallsOut) {
  RecorderPinRoot root;
  const CliResult start = RunKestrel(root.Args({"recorder", "start"}, {"--size", "4M"}));
  ASSERT_EQ(start.exit_code, 0) << start.err;
  ChildCallingGetppid(300);  // enough records of others for --last

  KestrelProcess first(root.Args({"dump"}, {"--json", "--last", "200"}));
  const std::string first_pid = std::to_string(first.pid());
  const CliResult r = first.Wait();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  EXPECT_EQ(lines.size(), 200u);
  EXPECT_TRUE(LinesWith(r.out, {"\"pid\":" + first_pid + ","}).empty()) << r.out;

  // Reading changed nothing in the recorder's settings.
  const CliResult settings = RunKestrel({"settings", "get", "own_tgid", "--pin-dir", root.dir()});
  EXPECT_EQ(settings.exit_code, 0) << settings.err;
  EXPECT_NE(settings.out.find("own_tgid=0"), std::string::npos) << settings.out;
}

}  // namespace
}  // namespace kestrel::e2e
