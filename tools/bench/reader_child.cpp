#include "bench/reader_child.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
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
#include "bench/syscall_loop.h"

namespace kestrel::bench {
namespace {

// Long enough to load, attach and be measured; the child then exits itself.
constexpr char kReaderSeconds[] = "4";
constexpr useconds_t kAttachWaitUs = 1500 * 1000;

// Starts `kestrel capture` on this process's getppid calls, output discarded.
absl::StatusOr<pid_t> StartReader(uint64_t ring_bytes, uint32_t cpus_per_buffer) {
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
                                   kReaderSeconds};
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
  return child;
}

absl::Status WaitReader(pid_t child) {
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError("the reader `kestrel capture` failed");
  }
  return absl::OkStatus();
}

// A field of /proc/<pid>/status, in bytes.
std::optional<uint64_t> StatusBytes(pid_t pid, const std::string& field) {
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

// CPU time of a process, in seconds: its scheduler runtime, to the
// nanosecond. (utime + stime from /proc come in clock ticks, 0.5% of a CPU
// over the idle window: as coarse as the 1% target itself.)
std::optional<double> CpuSeconds(pid_t pid) {
  clockid_t clock;
  timespec ts{};
  if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0) return std::nullopt;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

absl::StatusOr<uint64_t> MeasureReaderPeakRss(uint64_t ring_bytes, uint32_t cpus_per_buffer) {
  absl::StatusOr<pid_t> child = StartReader(ring_bytes, cpus_per_buffer);
  if (!child.ok()) return child.status();
  usleep(kAttachWaitUs);
  std::atomic<bool> stop{false};
  std::thread load([&stop] { RunUntilStopped(Workload::kGetppid, stop); });
  usleep(1000 * 1000);
  stop = true;
  load.join();
  usleep(200 * 1000);
  const std::optional<uint64_t> hwm = StatusBytes(*child, "VmHWM");
  if (absl::Status s = WaitReader(*child); !s.ok()) return s;
  if (!hwm) return absl::InternalError("could not read the reader's VmHWM");
  return *hwm;
}

absl::StatusOr<double> MeasureIdleReaderCpuPercent() {
  absl::StatusOr<pid_t> child = StartReader(8ULL << 20, 0);
  if (!child.ok()) return child.status();
  usleep(kAttachWaitUs);
  const std::optional<double> before = CpuSeconds(*child);
  constexpr double kIdleSeconds = 2.0;
  usleep(static_cast<useconds_t>(kIdleSeconds * 1e6));
  const std::optional<double> after = CpuSeconds(*child);
  if (absl::Status s = WaitReader(*child); !s.ok()) return s;
  if (!before || !after) return absl::InternalError("could not read the reader's CPU time");
  return (*after - *before) / kIdleSeconds * 100;
}

}  // namespace kestrel::bench
