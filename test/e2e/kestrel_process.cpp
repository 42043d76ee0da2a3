#include "kestrel_process.h"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>

namespace kestrel::e2e {
namespace {

using Clock = std::chrono::steady_clock;

int DecodeStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

namespace {

// Whether every directory above `path` lets others through, and the file
// lets them execute it.
bool OthersCanExecute(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    struct stat st {};
    if (stat(path.substr(0, slash).c_str(), &st) != 0 || !(st.st_mode & S_IXOTH)) return false;
  }
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && (st.st_mode & S_IXOTH);
}

// The binary an unprivileged user runs: the build's, or, when the build
// lies under a directory others cannot enter (a checkout in /root), a copy
// in a fresh /tmp directory, removed when the tests end.
const std::string& BinaryForOthers() {
  static const std::string path = [] {
    if (OthersCanExecute(KESTREL_CLI_PATH)) return std::string(KESTREL_CLI_PATH);
    char templ[] = "/tmp/kestrel-e2e-bin-XXXXXX";
    const std::string dir = mkdtemp(templ);
    chmod(dir.c_str(), 0755);
    const std::string copy = dir + "/kestrel";
    std::ifstream in(KESTREL_CLI_PATH, std::ios::binary);
    std::ofstream(copy, std::ios::binary) << in.rdbuf();
    chmod(copy.c_str(), 0755);
    static const std::string to_remove = copy;
    std::atexit([] {
      unlink(to_remove.c_str());
      rmdir(to_remove.substr(0, to_remove.rfind('/')).c_str());
    });
    return copy;
  }();
  return path;
}

// In the child, before exec: become `as`. False on any failure.
bool BecomeUser(const RunAs& as) {
  // Capabilities survive the uid change only with keep-caps; ambient ones
  // must also be permitted and inheritable.
  if (as.bpf_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) return false;
  if (setgroups(0, nullptr) != 0 || setgid(as.uid) != 0 || setuid(as.uid) != 0) return false;
  if (!as.bpf_caps) return true;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  for (int cap : {CAP_BPF, CAP_PERFMON}) {
    const uint32_t bit = 1u << (cap % 32);
    data[cap / 32].effective |= bit;
    data[cap / 32].permitted |= bit;
    data[cap / 32].inheritable |= bit;
  }
  if (syscall(SYS_capset, &header, data) != 0) return false;
  for (int cap : {CAP_BPF, CAP_PERFMON}) {
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) != 0) return false;
  }
  return true;
}

// In the child, before exec: a mount namespace of its own in which
// /dev/log is missing (connect: ENOENT) or, where the host has one, covered
// by /dev/null (connect: ECONNREFUSED; the bind follows systemd's link to
// the journal's socket). False on any failure.
bool HideSyslogSocket() {
  if (unshare(CLONE_NEWNS) != 0) return false;
  // Private, so the cover never reaches the host's namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  struct stat st {};
  if (stat("/dev/log", &st) != 0) return true;
  return mount("/dev/null", "/dev/log", nullptr, MS_BIND, nullptr) == 0;
}

// In the child, before exec: a mount namespace of its own in which
// /etc/hosts is `hosts`. False on any failure.
bool UseHostsFile(const char* hosts) {
  if (unshare(CLONE_NEWNS) != 0) return false;
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return mount(hosts, "/etc/hosts", nullptr, MS_BIND, nullptr) == 0;
}

}  // namespace

KestrelProcess::KestrelProcess(const std::vector<std::string>& args, std::optional<RunAs> as) {
  const bool other_user = as && (as->uid != 0 || as->bpf_caps);
  const std::string binary = other_user ? BinaryForOthers() : std::string(KESTREL_CLI_PATH);
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << strerror(errno);
    return;
  }
  pid_ = fork();
  if (pid_ == 0) {
    const int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    if (as && as->no_syslog_socket && !HideSyslogSocket()) _exit(125);
    if (as && as->hosts_file != nullptr && !UseHostsFile(as->hosts_file)) _exit(125);
    if (other_user && !BecomeUser(*as)) _exit(126);
    std::vector<char*> argv{const_cast<char*>(KESTREL_CLI_PATH)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  out_fd_ = out[0];
  err_fd_ = err[0];
  if (pid_ < 0) ADD_FAILURE() << "fork: " << strerror(errno);
}

KestrelProcess::~KestrelProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
}

// Reads whatever is ready on stdout and stderr within `timeout`.
void KestrelProcess::Pump(std::chrono::milliseconds timeout) {
  pollfd fds[2] = {{out_closed_ ? -1 : out_fd_, POLLIN, 0},
                   {err_closed_ ? -1 : err_fd_, POLLIN, 0}};
  if (out_closed_ && err_closed_) return;
  if (poll(fds, 2, static_cast<int>(timeout.count())) <= 0) return;
  char buf[65536];
  for (int i = 0; i < 2; ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    const ssize_t n = read(fds[i].fd, buf, sizeof buf);
    if (n <= 0) {
      (i == 0 ? out_closed_ : err_closed_) = true;
      continue;
    }
    if (i == 0) {
      out_buf_.append(buf, static_cast<size_t>(n));
      all_out_.append(buf, static_cast<size_t>(n));
    } else {
      err_.append(buf, static_cast<size_t>(n));
    }
  }
}

std::optional<std::string> KestrelProcess::ReadLine(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (const size_t nl = out_buf_.find('\n'); nl != std::string::npos) {
      std::string line = out_buf_.substr(0, nl);
      out_buf_.erase(0, nl + 1);
      lines_.push_back(line);
      return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (out_closed_ || left.count() <= 0) return std::nullopt;
    Pump(left);
  }
}

std::optional<std::string> KestrelProcess::WaitForLine(const std::string& needle,
                                                       std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    std::optional<std::string> line = ReadLine(left);
    if (!line) return std::nullopt;
    if (line->find(needle) != std::string::npos) return line;
  }
}

bool KestrelProcess::WaitForStderr(const std::string& needle, size_t count,
                                   std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    size_t seen = 0;
    for (size_t at = err_.find(needle); at != std::string::npos;
         at = err_.find(needle, at + needle.size())) {
      ++seen;
    }
    if (seen >= count) return true;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (err_closed_ || left.count() <= 0) return false;
    Pump(left);
  }
}

void KestrelProcess::Signal(int sig) {
  if (pid_ > 0) kill(pid_, sig);
}

CliResult KestrelProcess::Wait(std::chrono::milliseconds timeout) {
  CliResult result;
  const auto deadline = Clock::now() + timeout;
  int status = 0;
  bool reaped = false;
  while (!reaped) {
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      reaped = true;
      break;
    }
    if (Clock::now() >= deadline) {
      ADD_FAILURE() << "kestrel still running after " << timeout.count() << " ms; killed";
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      reaped = true;
      break;
    }
    Pump(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  while (!out_closed_ || !err_closed_) Pump(std::chrono::milliseconds(1000));
  result.exit_code = DecodeStatus(status);
  result.out = all_out_;
  result.err = err_;
  return result;
}

CliResult RunKestrel(const std::vector<std::string>& args, std::chrono::milliseconds timeout) {
  KestrelProcess process(args);
  return process.Wait(timeout);
}

CliResult RunKestrelAs(uid_t id, const std::vector<std::string>& args,
                       std::chrono::milliseconds timeout) {
  KestrelProcess process(args, id);
  return process.Wait(timeout);
}

}  // namespace kestrel::e2e
