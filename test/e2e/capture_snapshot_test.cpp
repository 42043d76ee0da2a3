// `capture -w` starts its file with the snapshot of the system at start, and
// `capture -r` seeds its thread table from it: a process that predates the
// capture is named in the replay exactly as the live capture named it.
// With -w, --count counts the events the selection shows, not the records
// written only for the thread table.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "capture_test_support.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;

constexpr char kChildName[] = "kcap-snapshot";

std::string CommOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string comm;
  std::getline(in, comm);
  return comm;
}

// A child renamed before any capture starts, so only the snapshot can name
// it, that opens <dir>/f0, <dir>/f1 ... (which do not exist) until killed;
// with `close_each`, it opens /dev/null instead and closes it each time.
class RenamedOpener {
 public:
  RenamedOpener(std::string dir, bool close_each) : dir_(std::move(dir)) {
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_NAME, kChildName);
      for (long i = 0;; ++i) {
        if (close_each) {
          close(open("/dev/null", O_RDONLY | O_CLOEXEC));
        } else {
          open((dir_ + "/f" + std::to_string(i)).c_str(), O_RDONLY | O_CLOEXEC);
        }
        usleep(500);
      }
    }
    for (int i = 0; i < 1000 && CommOf(pid_) != kChildName; ++i) usleep(1000);
  }
  ~RenamedOpener() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  std::string dir_;
  pid_t pid_ = -1;
};

// The JSON lines naming `dir`, keyed by path, without their timestamp (two
// probes stamp the same syscall alike, but not to the nanosecond).
std::map<std::string, std::string> OpensByPath(const std::string& out, const std::string& dir) {
  static const std::regex ts(R"("ts":[0-9]+,)");
  static const std::regex path(R"re("path":"([^"]*)")re");
  std::map<std::string, std::string> found;
  for (const std::string& line : TerminatedLines(out)) {
    if (line.find(dir) == std::string::npos) continue;
    std::smatch m;
    if (!std::regex_search(line, m, path)) continue;
    found[m[1]] = std::regex_replace(line, ts, "");
  }
  return found;
}

class CaptureSnapshotTest : public CaptureDirTest {
 protected:
  CaptureSnapshotTest() : CaptureDirTest("capsnap") {}
};

TEST_F(CaptureSnapshotTest, AProcessOlderThanTheFileIsNamedAsTheLiveCaptureNamedIt) {
  const std::string file = dir_ + "/snap.kcap";
  const std::string missing = dir_ + "/missing";
  RenamedOpener child(missing, false);
  ASSERT_EQ(CommOf(child.pid()), kChildName);
  const std::string pid = std::to_string(child.pid());
  KestrelProcess live({"capture", "--json", "--syscalls", "openat", "--pid", pid});
  ASSERT_TRUE(live.WaitForLine(missing, std::chrono::seconds(30)));
  CliResult write;
  std::atomic<bool> written{false};
  std::thread writer([&] {
    write = RunKestrel(
        {"capture", "-w", file, "--syscalls", "openat", "--pid", pid, "--duration", "2"});
    written = true;
  });
  while (!written) live.ReadLine(std::chrono::milliseconds(100));
  writer.join();
  ASSERT_EQ(write.exit_code, 0) << write.err;
  live.Signal(SIGINT);
  const CliResult shown = live.Wait(std::chrono::seconds(30));
  ASSERT_EQ(shown.exit_code, 0) << shown.err;

  const CliResult read = RunKestrel({"capture", "-r", file, "--json", "--syscalls", "openat"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.err, "");  // snapshot records are applied, not printed as undecodable
  const std::map<std::string, std::string> from_file = OpensByPath(read.out, missing);
  const std::map<std::string, std::string> from_live = OpensByPath(shown.out, missing);
  size_t common = 0;
  for (const auto& [path, line] : from_file) {
    auto it = from_live.find(path);
    if (it == from_live.end()) continue;
    ++common;
    // The whole line, the process's name included.
    EXPECT_EQ(line, it->second) << path;
  }
  EXPECT_GE(common, 100u);
  EXPECT_EQ(common, from_file.size());
  const std::string named =
      std::string("{\"comm\":\"") + kChildName + "\",\"tid\":" + pid + ",\"pid\":" + pid + ",";
  for (const auto& [path, line] : from_file) {
    EXPECT_EQ(line.rfind(named, 0), 0u) << line;
    EXPECT_NE(line.find("\"path\":\"" + path + "\""), std::string::npos) << line;
  }

  // The text form names it too.
  const CliResult text = RunKestrel({"capture", "-r", file, "--syscalls", "openat"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  size_t text_lines = 0;
  for (const std::string& line : TerminatedLines(text.out)) {
    if (line.find(missing) == std::string::npos) continue;
    ++text_lines;
    EXPECT_NE(line.find(std::string(" ") + kChildName + " " + pid + " "), std::string::npos)
        << line;
  }
  EXPECT_EQ(text_lines, from_file.size());
}

TEST_F(CaptureSnapshotTest, CountWithAFileCountsOnlyTheSelectedEvents) {
  RenamedOpener child(dir_, true);  // openat then close: close is kept only for the table
  const std::string pid = std::to_string(child.pid());
  const std::string file = dir_ + "/count.kcap";
  const CliResult write =
      RunKestrel({"capture", "-w", file, "--syscalls", "openat", "--pid", pid, "--count", "40"});
  ASSERT_EQ(write.exit_code, 0) << write.err;
  EXPECT_NE(write.err.find("capture file " + file + ": "), std::string::npos) << write.err;
  const CliResult read = RunKestrel({"capture", "-r", file, "--json", "--syscalls", "openat"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  size_t opens = 0;
  for (const std::string& line : TerminatedLines(read.out)) {
    opens += line.find("\"path\":\"/dev/null\"") != std::string::npos;
  }
  EXPECT_EQ(opens, 40u) << read.out;
  // The closes are in the file too, for the table: all of them shown.
  const CliResult all = RunKestrel({"capture", "-r", file, "--json", "--all"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_GT(TerminatedLines(all.out).size(), 40u);
}

}  // namespace
}  // namespace kestrel::e2e
