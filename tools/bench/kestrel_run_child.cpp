#include "bench/kestrel_run_child.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <utility>

#include "absl/strings/numbers.h"

namespace kestrel::bench {

absl::StatusOr<KestrelRunChild> KestrelRunChild::Start(const std::vector<std::string>& args) {
  return StartVerb("run", args);
}

absl::StatusOr<KestrelRunChild> KestrelRunChild::StartVerb(const std::string& verb,
                                                           const std::vector<std::string>& args) {
  char exe[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return absl::InternalError("cannot find the kestrel binary (/proc/self/exe)");
  std::vector<char*> argv = {exe, const_cast<char*>(verb.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int err[2];
  if (pipe2(err, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError("fork failed");
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    execv(exe, argv.data());
    _exit(127);
  }
  close(err[1]);
  fcntl(err[0], F_SETFL, O_NONBLOCK);
  return KestrelRunChild(pid, err[0]);
}

KestrelRunChild::KestrelRunChild(KestrelRunChild&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      err_(std::exchange(other.err_, -1)),
      partial_(std::move(other.partial_)),
      lines_(std::move(other.lines_)) {}

KestrelRunChild::~KestrelRunChild() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (err_ >= 0) close(err_);
}

std::vector<std::string> KestrelRunChild::Read(int timeout_ms) {
  pollfd p{.fd = err_, .events = POLLIN, .revents = 0};
  poll(&p, 1, timeout_ms);
  char buf[4096];
  for (;;) {
    const ssize_t n = read(err_, buf, sizeof buf);
    if (n <= 0) break;
    partial_.append(buf, static_cast<size_t>(n));
  }
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
    out.push_back(partial_.substr(start, nl - start));
    lines_.push_back(out.back());
  }
  partial_.erase(0, start);
  return out;
}

int KestrelRunChild::Stop() {
  kill(pid_, SIGINT);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    Read(100);
  }
  pid_ = -1;
  Read(0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::optional<uint64_t> NumberAfter(std::string_view line, std::string_view key) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + key.size());
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  uint64_t value = 0;
  if (n == 0 || !absl::SimpleAtoi(absl::string_view(rest.data(), n), &value)) return std::nullopt;
  return value;
}

std::optional<RunAccounting> FinalAccounting(const std::vector<std::string>& lines) {
  std::optional<RunAccounting> found;
  for (const std::string& line : lines) {
    if (!line.starts_with("records attempted ")) continue;
    std::optional<uint64_t> a = NumberAfter(line, "records attempted ");
    std::optional<uint64_t> c = NumberAfter(line, "consumed ");
    std::optional<uint64_t> u = NumberAfter(line, "left unread ");
    std::optional<uint64_t> d = NumberAfter(line, ", dropped ");
    std::optional<uint64_t> w = NumberAfter(line, "written ");
    if (a && c && u && d && w) found = RunAccounting{*a, *c, *u, *d, *w};
  }
  return found;
}

}  // namespace kestrel::bench
