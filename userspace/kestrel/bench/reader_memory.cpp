#include "reader_memory.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "syscall_loop.h"

namespace kestrel::cli::bench {
namespace {

// The field of /proc/<pid>/status, in bytes.
std::optional<uint64_t> StatusKb(pid_t pid, const std::string& field) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) != 0) continue;
    std::string digits;
    for (char c : line.substr(field.size() + 1)) {
      if (c >= '0' && c <= '9') digits += c;
    }
    uint64_t kb = 0;
    if (absl::SimpleAtoi(digits, &kb)) return kb * 1024;
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<uint64_t> MeasureReaderPeakRss(uint64_t ring_bytes, uint32_t cpus_per_buffer) {
  std::vector<std::string> args = {"/proc/self/exe",
                                   "capture",
                                   "--syscalls",
                                   "getppid",
                                   "--pid",
                                   std::to_string(getpid()),
                                   "--buffer-bytes",
                                   std::to_string(ring_bytes),
                                   "--cpus-per-buffer",
                                   std::to_string(cpus_per_buffer),
                                   "--duration",
                                   "4"};
  const pid_t child = fork();
  if (child < 0) return absl::ErrnoToStatus(errno, "forking a reader");
  if (child == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  // Give the reader time to load and attach, then write well over a ring's
  // worth of records so every page of it has been touched.
  usleep(1500 * 1000);
  std::atomic<bool> stop{false};
  std::thread load([&stop] { RunUntilStopped(Workload::kGetppid, stop); });
  usleep(1000 * 1000);
  stop = true;
  load.join();
  usleep(200 * 1000);
  const std::optional<uint64_t> hwm = StatusKb(child, "VmHWM");
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError("the reader `kestrel capture` failed");
  }
  if (!hwm) return absl::InternalError("could not read the reader's VmHWM");
  return *hwm;
}

}  // namespace kestrel::cli::bench
