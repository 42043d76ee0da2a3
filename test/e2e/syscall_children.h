// Child processes that make the syscalls an end-to-end test captures: a
// hammer that keeps every CPU busy with one syscall, and a stepper that
// makes tagged syscalls one round at a time, on request.
#ifndef KESTREL_TEST_E2E_SYSCALL_CHILDREN_H_
#define KESTREL_TEST_E2E_SYSCALL_CHILDREN_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace kestrel::e2e {

// One process per online CPU, each bound to its CPU, calling `nr` in a
// loop until destroyed (SIGKILL, then reaped).
class SyscallHammer {
 public:
  explicit SyscallHammer(long nr) {
    const long n_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    for (long cpu = 0; cpu < n_cpus; ++cpu) {
      const pid_t pid = fork();
      if (pid == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(static_cast<int>(cpu), &set);
        sched_setaffinity(0, sizeof set, &set);
        for (;;) syscall(nr);
      }
      if (pid < 0) {
        ADD_FAILURE() << "fork failed";
        return;
      }
      pids_.push_back(pid);
    }
  }
  ~SyscallHammer() {
    for (pid_t pid : pids_) kill(pid, SIGKILL);
    for (pid_t pid : pids_) waitpid(pid, nullptr, 0);
  }
  SyscallHammer(const SyscallHammer&) = delete;
  SyscallHammer& operator=(const SyscallHammer&) = delete;

 private:
  std::vector<pid_t> pids_;
};

// A child that, for each tag the parent sends, calls getpgrp(tag) then
// getppid(tag) (the tag in the first argument register, which a generic
// record prints) and answers once both returned. Its only other syscalls
// are the pipe reads and writes.
class TaggedSyscallChild {
 public:
  TaggedSyscallChild() {
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
      ADD_FAILURE() << "pipe2 failed";
      return;
    }
    pid_ = fork();
    if (pid_ == 0) {
      // Only the parent may hold the write end, or closing it is no EOF.
      close(to_child[1]);
      close(from_child[0]);
      uint32_t tag = 0;
      while (read(to_child[0], &tag, sizeof tag) == sizeof tag) {
        syscall(SYS_getpgrp, tag, 0, 0, 0, 0, 0);
        syscall(SYS_getppid, tag, 0, 0, 0, 0, 0);
        if (write(from_child[1], &tag, sizeof tag) != sizeof tag) break;
      }
      _exit(0);
    }
    close(to_child[0]);
    close(from_child[1]);
    to_child_ = to_child[1];
    from_child_ = from_child[0];
  }
  ~TaggedSyscallChild() {
    if (to_child_ >= 0) close(to_child_);  // EOF: the child exits
    if (from_child_ >= 0) close(from_child_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  TaggedSyscallChild(const TaggedSyscallChild&) = delete;
  TaggedSyscallChild& operator=(const TaggedSyscallChild&) = delete;

  pid_t pid() const { return pid_; }

  // Makes the tagged pair and returns once the child made both.
  bool Round(uint32_t tag) {
    uint32_t echo = 0;
    return write(to_child_, &tag, sizeof tag) == sizeof tag &&
           read(from_child_, &echo, sizeof echo) == sizeof echo && echo == tag;
  }

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_SYSCALL_CHILDREN_H_
