// `kestrel dump -w FILE`: a flight recorder's window saved as a capture
// file, which `kestrel capture -r` prints as the dump itself would.
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "getppid_child.h"
#include "recorder_pin_root.h"

namespace kestrel::e2e {
namespace {

// A file name in /tmp, removed when the test ends.
class TempFile {
 public:
  TempFile() : path_("/tmp/kestrel-dump-write-" + std::to_string(getpid()) + ".kcap") {}
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(DumpWriteTest, TheSavedWindowReadsBackWithEveryCallOfAChild) {
  RecorderPinRoot root;
  const CliResult start =
      RunKestrel(root.Args({"recorder", "start"}, {"--size", "256K", "--syscalls", "getppid"}));
  ASSERT_EQ(start.exit_code, 0) << start.err;

  constexpr int kCalls = 7;
  const std::string child = std::to_string(ChildCallingGetppid(kCalls));
  const std::string me = std::to_string(getpid());
  TempFile file;
  const CliResult dump = RunKestrel(root.Args({"dump"}, {"-w", file.path()}));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_TRUE(dump.out.empty()) << dump.out;
  EXPECT_NE(dump.err.find("records written to " + file.path()), std::string::npos) << dump.err;

  const CliResult read = RunKestrel({"capture", "-r", file.path(), "--syscalls", "getppid"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  const std::vector<std::string> calls =
      LinesWith(read.out, {" " + child + " getppid(", ") = " + me});
  EXPECT_EQ(calls.size(), static_cast<size_t>(kCalls)) << read.out;

  const CliResult json = RunKestrel({"capture", "-r", file.path(), "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(LinesWith(json.out, {"\"tid\":" + child + ",\"pid\":" + child + ",",
                                 "\"syscall\":\"getppid\"", "\"ret\":" + me + "}"})
                .size(),
            static_cast<size_t>(kCalls))
      << json.out;

  const CliResult stop = RunKestrel(root.Args({"recorder", "stop"}));
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
}

TEST(DumpWriteTest, AFileTakesNoJson) {
  const CliResult r = RunKestrel({"dump", "--name", "x", "-w", "/tmp/never.kcap", "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
