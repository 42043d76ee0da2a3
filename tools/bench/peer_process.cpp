#include "bench/peer_process.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace kestrel::bench {
namespace {

constexpr int kStartTimeoutMs = 30000;
constexpr int kStopTimeoutMs = 5000;
constexpr char kTracefs[] = "/sys/kernel/tracing";

bool IsExecutable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

// Peers attach to tracepoints, which they find through tracefs. When the
// machine has not mounted it, the peer gets a private mount namespace with
// tracefs mounted, which disappears with it. Runs in the forked child.
void MountTracefsPrivately() {
  if (access("/sys/kernel/tracing/events", F_OK) == 0) return;
  if (unshare(CLONE_NEWNS) != 0) return;
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return;
  mount("nodev", kTracefs, "tracefs", 0, nullptr);
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::vector<PeerSpec> KnownPeers() {
  return {
      {.label = "bpftrace (count syscalls)",
       .program = "bpftrace",
       .args = {"-e", "tracepoint:raw_syscalls:sys_enter { @ = count(); }"},
       .ready_text = "Attaching",
       .settle_ms = 1500},
      {.label = "opensnoop (libbpf-tools)",
       .program = "opensnoop",
       .args = {},
       .ready_text = "PID",
       .settle_ms = 200},
      {.label = "execsnoop (libbpf-tools)",
       .program = "execsnoop",
       .args = {},
       .ready_text = "PID",
       .settle_ms = 200},
  };
}

std::optional<std::string> FindProgram(const std::string& program) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH"); path != nullptr) {
    dirs = absl::StrSplit(path, ':', absl::SkipEmpty());
  }
  dirs.push_back("/usr/sbin");
  dirs.push_back("/sbin");
  for (const std::string& dir : dirs) {
    const std::string candidate = dir + "/" + program;
    if (IsExecutable(candidate)) return candidate;
  }
  return std::nullopt;
}

absl::StatusOr<std::unique_ptr<PeerProcess>> PeerProcess::Start(const PeerSpec& spec,
                                                                const std::string& path) {
  // Peers buffer stdout fully when it is a pipe, so their "attached" banner
  // would never arrive: stdbuf makes them flush each line.
  const std::optional<std::string> stdbuf = FindProgram("stdbuf");
  std::vector<std::string> argv;
  if (stdbuf)
    argv = {*stdbuf, "-oL", path};
  else
    argv = {path};
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return absl::ErrnoToStatus(errno, "creating a pipe for a peer");
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    close(fds[0]);
    close(fds[1]);
    return absl::ErrnoToStatus(err, "forking a peer");
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    MountTracefsPrivately();
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  close(fds[1]);
  std::unique_ptr<PeerProcess> peer(new PeerProcess(pid, fds[0]));

  std::string seen;
  const int64_t deadline = NowMs() + kStartTimeoutMs;
  while (seen.find(spec.ready_text) == std::string::npos) {
    const int64_t left = deadline - NowMs();
    pollfd p{.fd = fds[0], .events = POLLIN, .revents = 0};
    if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) {
      return absl::DeadlineExceededError(
          absl::StrFormat("%s did not report it had attached; it said: %s", spec.program, seen));
    }
    char buf[4096];
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) {
      return absl::UnavailableError(
          absl::StrFormat("%s exited before attaching; it said: %s", spec.program, seen));
    }
    seen.append(buf, static_cast<size_t>(n));
  }
  const int fd = fds[0];
  peer->discard_ = std::thread([fd] {
    char buf[65536];
    while (read(fd, buf, sizeof(buf)) > 0) {
    }
  });
  usleep(static_cast<useconds_t>(spec.settle_ms) * 1000);
  return peer;
}

PeerProcess::~PeerProcess() {
  kill(pid_, SIGINT);
  int status = 0;
  const int64_t deadline = NowMs() + kStopTimeoutMs;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (NowMs() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    usleep(10000);
  }
  // The peer (and any child holding the pipe) is gone: the reader sees EOF.
  if (discard_.joinable()) discard_.join();
  close(out_fd_);
}

}  // namespace kestrel::bench
