#include "bench/soak_load.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>

#include "bench/syscall_loop.h"

namespace kestrel::bench {
namespace {

constexpr int kOpensPerRound = 20;
constexpr int kGenericPerRound = 50;

// One spawn of /bin/true, reaped: a process that lives a few milliseconds,
// so the thread table sees a steady stream of births and deaths.
void SpawnTrue() {
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/true", "true", static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid > 0) waitpid(pid, nullptr, 0);
}

// A connect to a loopback port nobody listens on: refused, but a full
// socket/connect/close sequence for the probe and the descriptor table.
void ConnectRefused() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(9);  // discard: closed on a normal host
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  close(fd);
}

void OpenClose(const std::string& path) {
  for (int i = 0; i < kOpensPerRound; ++i) {
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
      fcntl(fd, F_GETFL);
      close(fd);
    }
  }
}

[[noreturn]] void Work(int cpu, const SoakLoadOptions& options) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
  const std::string path =
      options.scratch_dir + "/soak-" + std::to_string(cpu) + "-" + std::to_string(getpid());
  const long round_ns = 1'000'000'000L / options.rounds_per_second;
  timespec next{};
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (;;) {
    SpawnTrue();
    OpenClose(path);
    ConnectRefused();
    for (int i = 0; i < kGenericPerRound; ++i) syscall(SYS_getppid);
    // A fixed pace, not as fast as possible: late rounds are not made up.
    next.tv_nsec += round_ns;
    while (next.tv_nsec >= 1'000'000'000L) {
      next.tv_nsec -= 1'000'000'000L;
      ++next.tv_sec;
    }
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec)) {
      next = now;
    } else {
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr);
    }
  }
}

}  // namespace

SoakLoad::SoakLoad(const SoakLoadOptions& options) {
  for (int cpu = 0; cpu < OnlineCpus(); ++cpu) {
    const pid_t pid = fork();
    if (pid == 0) Work(cpu, options);
    if (pid < 0) {
      ++failed_;
      continue;
    }
    workers_.push_back(pid);
  }
}

SoakLoad::~SoakLoad() {
  for (pid_t pid : workers_) kill(pid, SIGKILL);
  for (pid_t pid : workers_) waitpid(pid, nullptr, 0);
}

}  // namespace kestrel::bench
