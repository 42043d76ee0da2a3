#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"
#include "agent/outputs/fd_write.h"

extern char** environ;

namespace kestrel::agent::outputs {
namespace {

// How long a program whose stdin closed may take to exit before it is killed.
constexpr auto kExitGrace = std::chrono::seconds(2);

class ProgramChannel : public AlertChannel {
 public:
  ProgramChannel(std::string program, bool keep_alive)
      : program_(std::move(program)), keep_alive_(keep_alive) {}
  ~ProgramChannel() override { Finish(); }

  std::string_view name() const override { return "program"; }

  absl::Status Spawn() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
      const int err = errno;
      return DeliveryError(FailureCause::kSpawnError,
                           absl::StrCat("program output: pipe: ", strerror(err)), err);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 onto 0 clears close-on-exec there; both pipe ends close on exec.
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    // The program starts with SIGPIPE as a program expects it: neither the
    // block of this channel's thread nor an ignore the process may have set.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t pipe_default;
    sigemptyset(&pipe_default);
    sigaddset(&pipe_default, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &pipe_default);
    // A process group of its own: what the shell starts (a program that
    // never reads, a pipeline, something in the background) holds the pipe
    // too, and is killed with the shell, never left behind.
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    const char* argv[] = {"sh", "-c", program_.c_str(), nullptr};
    pid_t pid = -1;
    const int err =
        posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(fds[0]);
    if (err != 0) {
      close(fds[1]);
      return DeliveryError(
          FailureCause::kSpawnError,
          absl::StrCat("program output: cannot run sh -c ", program_, ": ", strerror(err)), err);
    }
    fd_ = fds[1];
    last_status_ = 0;
    pid_.store(pid);
    return absl::OkStatus();
  }

  absl::Status Send(const FormattedAlert& alert) override {
    pending_.append(alert.line);
    pending_.push_back('\n');
    if (!keep_alive_ || pending_.size() >= kMaxPending) return Write();
    return absl::OkStatus();
  }

  absl::Status Flush() override { return Write(); }

  void Abort() override {
    aborted_.store(true);
    const pid_t pid = pid_.load();
    // The group: a write blocked on a grandchild that never reads returns.
    if (pid > 0) kill(-pid, SIGKILL);
  }

 private:
  static constexpr size_t kMaxPending = size_t{64} * 1024;

  absl::Status Write() {
    if (pending_.empty()) return absl::OkStatus();
    last_status_ = 0;
    absl::Status s = WriteOnce();
    if (!s.ok() && keep_alive_ && !aborted_.load()) {
      // The program exited (or was never started): start it again, once.
      Finish();
      s = WriteOnce();
      // A pipe broken again: the shell's exit status says why (a missing
      // program).
      if (!s.ok() && FailureOf(s).cause == FailureCause::kWriteError) {
        if (absl::Status exit = ExitError(); !exit.ok()) s = exit;
      }
    }
    pending_.clear();
    if (!keep_alive_) {
      // Run per alert: the program's own verdict counts too. A program
      // that is missing (127) or failed did not deliver the alert. (A
      // failed write may have reaped the shell already.)
      Finish();
      if (absl::Status exit = ExitError(); !exit.ok()) s = exit;
    }
    return s;
  }

  // An error for the last shell's nonzero exit, OK otherwise: sh exits
  // 127 when it finds no such command.
  absl::Status ExitError() const {
    if (!WIFEXITED(last_status_) || WEXITSTATUS(last_status_) == 0) return absl::OkStatus();
    const int code = WEXITSTATUS(last_status_);
    return DeliveryError(code == 127 ? FailureCause::kProgramNotFound : FailureCause::kNonzeroExit,
                         absl::StrCat("program output: sh -c ", program_, " exited with ", code));
  }

  absl::Status WriteOnce() {
    if (fd_ < 0) {
      if (aborted_.load()) return DeliveryError(FailureCause::kCutAtStop, "program output: closed");
      absl::Status s = Spawn();
      if (!s.ok()) return s;
    }
    absl::Status s = WriteAll(fd_, pending_);
    if (!s.ok()) Finish();
    return s;
  }

  // Closes the program's stdin, waits for the shell to exit, then kills
  // whatever it left in its group. Keeps the shell's wait status in
  // last_status_ (SIGKILL's when it had to be killed).
  void Finish() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    const pid_t pid = pid_.load();
    if (pid <= 0) return;
    const auto deadline = std::chrono::steady_clock::now() + kExitGrace;
    siginfo_t info{};
    // WNOWAIT: the shell stays a zombie, so its pid (the group's id) cannot
    // be reused before the group is killed.
    while (waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0) {
      if (std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    kill(-pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    last_status_ = status;
    pid_.store(-1);
  }

  std::string program_;
  bool keep_alive_;
  int fd_ = -1;
  int last_status_ = 0;  // the last shell's wait status, once reaped
  std::atomic<pid_t> pid_{-1};
  std::atomic<bool> aborted_{false};
  std::string pending_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<AlertChannel>> MakeProgramChannel(const std::string& program,
                                                                 bool keep_alive) {
  if (program.empty()) return absl::InvalidArgumentError("program output: no program");
  auto channel = std::make_unique<ProgramChannel>(program, keep_alive);
  // A program kept alive starts now, so a shell that cannot run fails at start.
  if (keep_alive) {
    absl::Status s = channel->Spawn();
    if (!s.ok()) return s;
  }
  return channel;
}

}  // namespace kestrel::agent::outputs
