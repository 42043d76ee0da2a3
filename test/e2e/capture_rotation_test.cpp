// `capture -w --rotate-size` starts every file of a rotation with the state
// at its start (threads and descriptors, as the capture's own table had
// them), so each file reads alone: a later file, read without the ones
// before it, names a process whose exec happened in the first file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "capture_test_support.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A child that writes 4 KiB of zeros to /dev/null every 2 ms (records that
// compress to almost nothing, so they fill no file) until told to exec
// `program` (a copy of dd named kcap-rotated), which then writes 4 KiB of
// random bytes a record, as fast as it can, until killed.
class ExecOnCue {
 public:
  explicit ExecOnCue(const std::string& program) {
    int cue[2];
    if (pipe2(cue, O_CLOEXEC) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(cue[1]);
      fcntl(cue[0], F_SETFL, O_NONBLOCK);
      static char zeros[4096];
      const int out = open("/dev/null", O_WRONLY | O_CLOEXEC);
      char go;
      while (read(cue[0], &go, 1) != 1) {
        if (write(out, zeros, sizeof(zeros)) < 0) _exit(1);
        usleep(2000);
      }
      execl(program.c_str(), "kcap-rotated", "if=/dev/urandom", "of=/dev/null", "bs=4096",
            "count=100000000", "status=none", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(cue[0]);
    cue_ = cue[1];
  }
  ~ExecOnCue() {
    if (cue_ >= 0) close(cue_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  bool Exec() { return write(cue_, "g", 1) == 1; }

 private:
  pid_t pid_ = -1;
  int cue_ = -1;
};

class CaptureRotationTest : public CaptureDirTest {
 protected:
  CaptureRotationTest() : CaptureDirTest("caprot") {}
};

TEST_F(CaptureRotationTest, ALaterFileAloneNamesAProcessExecdInTheFirst) {
  const std::string program = dir_ + "/kcap-rotated";
  fs::copy_file("/bin/dd", program);
  const std::string file = dir_ + "/rot.kcap";
  // The current file, then file.1, file.2 ... from newest to oldest.
  const auto numbered = [&](int n) { return n == 0 ? file : file + "." + std::to_string(n); };
  ExecOnCue child(program);
  ASSERT_GT(child.pid(), 0);
  const std::string pid = std::to_string(child.pid());
  const std::string of_child = "\"pid\":" + pid + ",";
  KestrelProcess capture({"capture", "-w", file, "--syscalls", "write,execve", "--pid", pid,
                          "--io-data", "--snaplen", "4096", "--rotate-size", "1", "--rotate-keep",
                          "200"});

  // The child's writes reach the file once the probe is attached: only
  // then does it exec, so its exec is in the first file.
  const auto deadline = std::chrono::steady_clock::now() + seconds(90);
  bool attached = false;
  while (!attached && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(200));
    const CliResult read = RunKestrel({"capture", "-r", file, "--json", "--syscalls", "write"});
    attached = read.out.find(of_child) != std::string::npos;
  }
  ASSERT_TRUE(attached) << "no write of the child reached " << file;
  ASSERT_FALSE(fs::exists(file + ".1"));
  ASSERT_TRUE(child.Exec());
  // Two rotations at least: the last file is the third.
  while (!fs::exists(file + ".2") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  ASSERT_TRUE(fs::exists(file + ".2"));
  std::this_thread::sleep_for(milliseconds(100));
  capture.Signal(SIGINT);
  const CliResult written = capture.Wait(seconds(60));
  ASSERT_EQ(written.exit_code, 0) << written.err;

  int oldest = 0;
  while (fs::exists(numbered(oldest + 1))) ++oldest;
  ASSERT_GE(oldest, 2);
  ASSERT_LT(oldest, 200) << "the first file was not kept";

  // The exec is in the first file, which names the program it ran.
  const std::string first = numbered(oldest);
  const CliResult execs = RunKestrel({"capture", "-r", first, "--json", "--syscalls", "execve"});
  ASSERT_EQ(execs.exit_code, 0) << execs.err;
  int exec_lines = 0;
  for (const std::string& line : TerminatedLines(execs.out)) {
    if (line.find(of_child) == std::string::npos) continue;
    ++exec_lines;
    EXPECT_NE(line.find("\"comm\":\"kcap-rotated\""), std::string::npos) << line;
  }
  EXPECT_EQ(exec_lines, 1) << execs.out;

  // The newest file with writes of the child, alone: no exec of the child
  // in it, and every write of the child named by the snapshot the file
  // starts with. (A rotation can be the capture's last act, leaving a
  // newest file that holds only its snapshot.)
  int newest = -1;
  CliResult last;
  for (int n = 0; n < oldest && newest < 0; ++n) {
    last = RunKestrel({"capture", "-r", numbered(n), "--json", "--syscalls", "write"});
    ASSERT_EQ(last.exit_code, 0) << last.err;
    if (last.out.find(of_child) != std::string::npos) newest = n;
  }
  ASSERT_GE(newest, 0) << "no file after the first holds a write of the child";
  const CliResult last_execs =
      RunKestrel({"capture", "-r", numbered(newest), "--json", "--syscalls", "execve"});
  ASSERT_EQ(last_execs.exit_code, 0) << last_execs.err;
  EXPECT_EQ(last_execs.out.find(of_child), std::string::npos) << last_execs.out;
  for (const std::string& line : TerminatedLines(last.out)) {
    if (line.find(of_child) == std::string::npos) continue;
    EXPECT_NE(line.find("\"comm\":\"kcap-rotated\""), std::string::npos) << line.substr(0, 200);
  }
}

}  // namespace
}  // namespace kestrel::e2e
