#include "bench/reader_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
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

// Long enough for any load; the child is stopped (SIGINT) once measured.
constexpr char kReaderSeconds[] = "120";
constexpr int kAttachTimeoutMs = 90 * 1000;

// A child `kestrel` verb: its pid and the read end of its stderr, on which
// it says when it is attached.
struct Reader {
  pid_t pid = -1;
  int stderr_fd = -1;
};

// Runs this binary with `args` (after argv[0]), its stdout thrown away.
absl::StatusOr<Reader> StartKestrel(std::vector<std::string> args) {
  args.insert(args.begin(), "/proc/self/exe");
  int err[2];
  if (pipe2(err, O_CLOEXEC) != 0) return absl::ErrnoToStatus(errno, "a pipe for the reader");
  const pid_t child = fork();
  if (child < 0) return absl::ErrnoToStatus(errno, "forking a reader");
  if (child == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(err[1]);
  return Reader{child, err[0]};
}

// A reader `kestrel capture` on this process's getppid calls.
absl::StatusOr<Reader> StartReader(uint64_t ring_bytes, uint32_t cpus_per_buffer) {
  return StartKestrel({"capture", "--syscalls", "getppid", "--pid", std::to_string(getpid()),
                       "--buffer-bytes", std::to_string(ring_bytes), "--cpus-per-buffer",
                       std::to_string(cpus_per_buffer), "--duration", kReaderSeconds});
}

// Returns once the reader says it is attached: what is measured after it
// is the running reader, never the probe's load (seconds of verifier CPU).
absl::Status WaitAttached(const Reader& reader) {
  std::string seen;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kAttachTimeoutMs);
  while (seen.find(": attached") == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return absl::DeadlineExceededError("the reader never attached");
    pollfd p{reader.stderr_fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[512];
    const ssize_t n = read(reader.stderr_fd, buf, sizeof(buf));
    if (n <= 0) return absl::InternalError("the reader exited before it attached");
    seen.append(buf, static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

// Stops the reader (SIGINT: a clean exit) and waits for it.
absl::Status StopReader(const Reader& reader, const char* verb = "capture") {
  kill(reader.pid, SIGINT);
  int status = 0;
  waitpid(reader.pid, &status, 0);
  close(reader.stderr_fd);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(absl::StrCat("the bench's child `kestrel ", verb, "` failed"));
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
  absl::StatusOr<Reader> reader = StartReader(ring_bytes, cpus_per_buffer);
  if (!reader.ok()) return reader.status();
  if (absl::Status s = WaitAttached(*reader); !s.ok()) {
    (void)StopReader(*reader);
    return s;
  }
  std::atomic<bool> stop{false};
  std::thread load([&stop] { RunUntilStopped(Workload::kGetppid, stop); });
  usleep(1000 * 1000);
  stop = true;
  load.join();
  usleep(200 * 1000);
  const std::optional<uint64_t> hwm = StatusBytes(reader->pid, "VmHWM");
  if (absl::Status s = StopReader(*reader); !s.ok()) return s;
  if (!hwm) return absl::InternalError("could not read the reader's VmHWM");
  return *hwm;
}

absl::StatusOr<double> MeasureIdleReaderCpuPercent() {
  absl::StatusOr<Reader> reader = StartReader(8ULL << 20, 0);
  if (!reader.ok()) return reader.status();
  if (absl::Status s = WaitAttached(*reader); !s.ok()) {
    (void)StopReader(*reader);
    return s;
  }
  // A moment for what follows the attach line (the /proc snapshot) to end.
  usleep(300 * 1000);
  const std::optional<double> before = CpuSeconds(reader->pid);
  constexpr double kIdleSeconds = 2.0;
  usleep(static_cast<useconds_t>(kIdleSeconds * 1e6));
  const std::optional<double> after = CpuSeconds(reader->pid);
  if (absl::Status s = StopReader(*reader); !s.ok()) return s;
  if (!before || !after) return absl::InternalError("could not read the reader's CPU time");
  return (*after - *before) / kIdleSeconds * 100;
}

absl::StatusOr<RunRss> MeasureRunAtRestRss(const std::string& rules_path) {
  // Alerts go to the child's stdout (/dev/null); 8 MiB rings as the
  // reader's row, so the two figures compare.
  absl::StatusOr<Reader> run =
      StartKestrel({"run", "-r", rules_path, "--buffer-bytes", std::to_string(8ULL << 20)});
  if (!run.ok()) return run.status();
  if (absl::Status s = WaitAttached(*run); !s.ok()) {
    (void)StopReader(*run, "run");
    return s;
  }
  // At rest: the /proc snapshot taken after the attach has ended and the
  // host's own background calls are all that is traced.
  usleep(2000 * 1000);
  const std::optional<uint64_t> rss = StatusBytes(run->pid, "VmRSS");
  const std::optional<uint64_t> hwm = StatusBytes(run->pid, "VmHWM");
  if (absl::Status s = StopReader(*run, "run"); !s.ok()) return s;
  if (!rss || !hwm) return absl::InternalError("could not read `kestrel run`'s memory");
  return RunRss{*rss, *hwm};
}

}  // namespace kestrel::bench
