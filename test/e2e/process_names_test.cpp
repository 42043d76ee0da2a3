// The name column of `kestrel capture`: each event names its thread as it
// was when the syscall happened, kept from the kernel's own records (forks,
// execs, renames, exits) that are captured even when not asked for, and is
// escaped in text and valid in JSON whatever the name holds.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../support/strict_json.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A file of the test's own, so its opens are told apart from the host's.
class TempFile {
 public:
  explicit TempFile(const std::string& tag)
      : path_("/tmp/kestrel-e2e-" + tag + "-" + std::to_string(getpid())) {
    std::FILE* f = std::fopen(path_.c_str(), "w");
    if (f) {
      std::fputs("x\n", f);
      std::fclose(f);
    }
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void OpenAndClose(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) close(fd);
}

// Runs `body` in a child process and waits for it; the child's exit status
// is the body's return value.
int InChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Opens `marker` until the capture prints it: from then on the probe is
// attached and the thread table seeded.
bool WaitUntilCapturing(KestrelProcess& capture, const std::string& marker) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    OpenAndClose(marker);
    if (capture.WaitForLine(marker, milliseconds(500))) return true;
  }
  return false;
}

std::vector<std::string> LinesContaining(const std::vector<std::string>& lines,
                                         const std::string& s) {
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    if (l.find(s) != std::string::npos) out.push_back(l);
  }
  return out;
}

// Text lines are "HH:MM:SS.nnnnnnnnn COMM TID EVENT ..."; comm is field 2.
std::string CommOf(const std::string& line) {
  const size_t start = line.find(' ') + 1;
  return line.substr(start, line.find(' ', start) - start);
}

// Runs a capture of `args`, waits until it is live, runs `scenario`, then
// opens `done` and stops the capture once that shows.
CliResult CaptureAround(const std::vector<std::string>& args, const std::string& tag,
                        const std::function<void()>& scenario) {
  TempFile ready(tag + "-ready");
  TempFile done(tag + "-done");
  KestrelProcess capture(args);
  if (!WaitUntilCapturing(capture, ready.path())) {
    ADD_FAILURE() << "capture never showed " << ready.path();
    return capture.Wait(seconds(10));
  }
  scenario();
  const auto deadline = std::chrono::steady_clock::now() + seconds(60);
  bool seen = false;
  while (!seen && std::chrono::steady_clock::now() < deadline) {
    OpenAndClose(done.path());
    seen = capture.WaitForLine(done.path(), milliseconds(500)).has_value();
  }
  EXPECT_TRUE(seen) << "capture never showed " << done.path();
  capture.Signal(SIGINT);
  CliResult r = capture.Wait(seconds(30));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r;
}

std::vector<std::string> SplitLines(const std::string& out) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < out.size()) {
    const size_t end = out.find('\n', start);
    lines.push_back(out.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

TEST(ProcessNamesTest, OpenatAloneNamesRenamedExecedAndShortLivedProcesses) {
  TempFile renamed("renamed");
  TempFile catted("catted");
  TempFile threaded("threaded");
  pid_t threaded_pid = 0;
  const CliResult r = CaptureAround({"capture", "--syscalls", "openat"}, "names", [&] {
    // Open, rename with prctl, open again.
    EXPECT_EQ(InChild([&] {
                prctl(PR_SET_NAME, "before-rename", 0, 0, 0);
                OpenAndClose(renamed.path());
                prctl(PR_SET_NAME, "sshd", 0, 0, 0);
                OpenAndClose(renamed.path());
                return 0;
              }),
              0);
    // Twenty processes gone long before their lines are printed.
    for (int i = 0; i < 20; ++i) {
      EXPECT_EQ(InChild([&] {
                  const int null = open("/dev/null", O_WRONLY);
                  dup2(null, STDOUT_FILENO);
                  execl("/bin/cat", "cat", catted.path().c_str(), nullptr);
                  return 127;
                }),
                0);
    }
    // A second thread execs: the process continues as `cat` under the
    // leader's tid.
    const pid_t pid = fork();
    if (pid == 0) {
      prctl(PR_SET_NAME, "pre-exec", 0, 0, 0);
      std::thread t([&] {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        execl("/bin/cat", "cat", threaded.path().c_str(), nullptr);
        _exit(127);
      });
      t.join();
      _exit(126);
    }
    threaded_pid = pid;
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  });
  const std::vector<std::string> lines = SplitLines(r.out);

  const std::vector<std::string> renames = LinesContaining(lines, renamed.path());
  ASSERT_EQ(renames.size(), 2u) << r.out.substr(0, 4000);
  EXPECT_EQ(CommOf(renames[0]), "before-rename") << renames[0];
  EXPECT_EQ(CommOf(renames[1]), "sshd") << renames[1];

  const std::vector<std::string> cats = LinesContaining(lines, catted.path());
  ASSERT_EQ(cats.size(), 20u);
  for (const std::string& l : cats) EXPECT_EQ(CommOf(l), "cat") << l;

  const std::vector<std::string> threaded_lines = LinesContaining(lines, threaded.path());
  ASSERT_EQ(threaded_lines.size(), 1u);
  EXPECT_EQ(CommOf(threaded_lines[0]), "cat") << threaded_lines[0];
  EXPECT_NE(threaded_lines[0].find(" cat " + std::to_string(threaded_pid) + " openat "),
            std::string::npos)
      << threaded_lines[0];

  // The records kept for the names are not shown: no line's event column
  // (the 4th) names one of them.
  for (const std::string& l : lines) {
    size_t start = 0;
    for (int field = 0; field < 3 && start != std::string::npos; ++field) {
      start = l.find(' ', start);
      if (start != std::string::npos) ++start;
    }
    if (start == std::string::npos) continue;
    const std::string event = l.substr(start, l.find(' ', start) - start);
    for (const char* hidden :
         {"clone", "clone3", "fork", "vfork", "execve", "execveat", "prctl", "process_exit"}) {
      ASSERT_NE(event, hidden) << l;
    }
  }
}

TEST(ProcessNamesTest, FailedExecveShowsTheNameItsRecordCarries) {
  TempFile missing("missing-exe");
  std::filesystem::remove(missing.path());
  const CliResult r = CaptureAround({"capture", "--syscalls", "openat,execve"}, "failexec", [&] {
    EXPECT_EQ(InChild([&] {
                prctl(PR_SET_NAME, "exec-fails", 0, 0, 0);
                execl(missing.path().c_str(), "x", nullptr);
                return 3;
              }),
              3);
  });
  const std::vector<std::string> execs = LinesContaining(SplitLines(r.out), missing.path());
  ASSERT_EQ(execs.size(), 1u) << r.out.substr(0, 4000);
  EXPECT_EQ(CommOf(execs[0]), "exec-fails") << execs[0];
  EXPECT_NE(execs[0].find(" execve res=-2(ENOENT) "), std::string::npos) << execs[0];
}

constexpr char kHostileName[] = "\x1b[2J\nfake 1";

TEST(ProcessNamesTest, HostileNameIsEscapedInText) {
  TempFile file("hostile-text");
  const CliResult r = CaptureAround({"capture", "--syscalls", "openat"}, "hostile-text", [&] {
    EXPECT_EQ(InChild([&] {
                prctl(PR_SET_NAME, kHostileName, 0, 0, 0);
                OpenAndClose(file.path());
                return 0;
              }),
              0);
  });
  const std::vector<std::string> lines = SplitLines(r.out);
  const std::vector<std::string> opens = LinesContaining(lines, file.path());
  ASSERT_EQ(opens.size(), 1u) << r.out.substr(0, 4000);
  EXPECT_NE(opens[0].find(" \\x1b[2J\\x0afake 1 "), std::string::npos) << opens[0];
  // The newline did not start a line of its own, and no ESC reached stdout.
  EXPECT_TRUE(LinesContaining(lines, "fake 1").size() == 1u);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

TEST(ProcessNamesTest, HostileNameIsValidJson) {
  TempFile file("hostile-json");
  const CliResult r =
      CaptureAround({"capture", "--syscalls", "openat", "--json"}, "hostile-json", [&] {
        EXPECT_EQ(InChild([&] {
                    prctl(PR_SET_NAME, kHostileName, 0, 0, 0);
                    OpenAndClose(file.path());
                    return 0;
                  }),
                  0);
      });
  const std::vector<std::string> lines = SplitLines(r.out);
  for (const std::string& l : lines) {
    ASSERT_EQ(kestrel::testing::StrictJson::Check(l), "") << l;
  }
  const std::vector<std::string> opens = LinesContaining(lines, file.path());
  ASSERT_EQ(opens.size(), 1u) << r.out.substr(0, 4000);
  EXPECT_NE(opens[0].find("\"comm\":\"\\u001b[2J\\u000afake 1\""), std::string::npos) << opens[0];
}

}  // namespace
}  // namespace kestrel::e2e
