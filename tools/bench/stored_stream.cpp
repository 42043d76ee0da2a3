#include "bench/stored_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "agent/probe/probe_loader.h"
#include "bench/container_cgroups.h"
#include "engine/decode/syscall_names.h"
#include "engine/state/state_syscalls.h"
#include "libpman.h"
#include "shared/event_types.h"

namespace kestrel::bench {
namespace {

constexpr auto kTimeCap = std::chrono::seconds(30);

absl::Status Check(int rc, const char* what) {
  if (rc >= 0) return absl::OkStatus();
  return absl::Status(absl::ErrnoToStatusCode(-rc),
                      absl::StrFormat("%s: %s", what, std::strerror(-rc)));
}

// Children running the syscall loop, one per CPU the machine has (at most 2
// here), beside one shell loop spawning commands.
constexpr int kLoadProcesses = 2;

// The mixed load, in a child until killed: per round an open, read and close
// of a small file, a fcntl dup and its close, and a sched_yield (captured as
// a generic record); every 4th round a TCP connection to a loopback listener
// and both closes; every 256th round a spawn of /bin/true.
[[noreturn]] void RunLoad() {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  listen(listener, 64);
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  char buf[64];
  for (uint64_t round = 0;; ++round) {
    if (round % 256 == 0) {
      const pid_t child = fork();
      if (child == 0) {
        execl("/bin/true", "true", "--kestrel-bench", static_cast<char*>(nullptr));
        _exit(127);
      }
      if (child > 0) waitpid(child, nullptr, 0);
    }
    const int fd = open("/etc/hostname", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      if (read(fd, buf, sizeof(buf)) < 0) buf[0] = 0;
      const int dup = fcntl(fd, F_DUPFD_CLOEXEC, 100);
      if (dup >= 0) close(dup);
      close(fd);
    }
    const int client = round % 4 == 0 ? socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
    if (client >= 0) {
      if (connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
        const int server = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (server >= 0) close(server);
      }
      close(client);
    }
    syscall(SYS_sched_yield);
  }
}

// The spawning load, as a shell loop of short commands (the anchor's
// workload shape: ls, cat, grep, find, sh), exec'd in a child until killed.
constexpr char kShellLoop[] =
    "while :; do ls -la /usr/share/doc > /dev/null; cat /etc/os-release /etc/hostname > "
    "/dev/null; grep -ri license /usr/share/doc/bash > /dev/null 2>&1; find /usr/share/doc "
    "-maxdepth 1 -name 'b*' > /dev/null; sh -c 'echo hi | wc -c > /dev/null'; done";

[[noreturn]] void RunShellLoop() {
  execl("/bin/sh", "sh", "-c", kShellLoop, static_cast<char*>(nullptr));
  _exit(127);
}

std::vector<uint8_t> CapturedSyscalls() {
  std::vector<uint8_t> table(pman_syscall_table_size(), 0);
  auto on = [&](uint32_t id) {
    if (id < table.size()) table[id] = 1;
  };
  for (uint32_t id : engine::StateSyscalls()) on(id);
  for (const char* name :
       {"openat", "read", "close", "fcntl", "socket", "connect", "accept4", "sched_yield"}) {
    if (std::optional<uint32_t> id = engine::SyscallId(name)) on(*id);
  }
  return table;
}

// Starts the load: kLoadProcesses syscall mixes and the shell loop, or with
// `cgroups` one syscall mix in each and the shell loop in the first. Each
// child joins its cgroup before it forks the process that runs the load,
// so that process's clone record already names the container. The ids to
// kill, negative for a process group.
std::vector<pid_t> StartLoad(const ContainerCgroups* cgroups) {
  std::vector<pid_t> load;
  const int mixes = cgroups != nullptr ? cgroups->count() : kLoadProcesses;
  for (int i = 0; i <= mixes; ++i) {
    const bool shell = i == mixes;
    const pid_t child = fork();
    if (child == 0) {
      setpgid(0, 0);  // its own group: killed with every process it runs
      if (cgroups != nullptr) {
        if (!cgroups->Join(shell ? 0 : i)) _exit(126);
        if (fork() != 0) {
          pause();  // until the group is killed
          _exit(0);
        }
      }
      if (shell) RunShellLoop();
      RunLoad();
    }
    if (child > 0) {
      setpgid(child, child);
      load.push_back(-child);
    }
  }
  return load;
}

}  // namespace

absl::StatusOr<StoredStream> RecordMixedStream(uint64_t events, int cgroup_count,
                                               bool as_containers) {
  std::optional<ContainerCgroups> cgroups;
  if (cgroup_count > 0) {
    absl::StatusOr<ContainerCgroups> made = ContainerCgroups::Make(cgroup_count, as_containers);
    if (!made.ok()) return made.status();
    cgroups.emplace(*std::move(made));
  }
  pman_options options;
  pman_default_options(&options);
  options.buffer_bytes = PMAN_BUFFER_BYTES_LARGE;
  pman_handle* raw = nullptr;
  if (absl::Status s = Check(pman_init(&options, &raw), "pman_init"); !s.ok()) return s;
  agent::HandlePtr handle(raw);
  if (absl::Status s = Check(pman_open(raw), "pman_open"); !s.ok()) return s;
  if (absl::Status s = Check(pman_load(raw), "pman_load"); !s.ok()) return s;
  const std::vector<uint8_t> table = CapturedSyscalls();
  if (absl::Status s = Check(pman_enforce_sc_set(raw, table.data(), table.size()), "syscall set");
      !s.ok()) {
    return s;
  }
  if (absl::Status s = Check(pman_attach(raw), "pman_attach"); !s.ok()) return s;

  const std::vector<pid_t> load = StartLoad(cgroups ? &*cgroups : nullptr);
  if (load.empty()) return absl::ErrnoToStatus(errno, "fork");

  StoredStream stream;
  stream.offsets.reserve(events);
  stream.bytes.reserve(events * 96);
  const auto deadline = std::chrono::steady_clock::now() + kTimeCap;
  while (stream.offsets.size() < events && std::chrono::steady_clock::now() < deadline) {
    void* record = nullptr;
    int16_t ring = 0;
    if (pman_consume_first_event(raw, &record, &ring) < 0) break;
    if (record == nullptr) {
      pman_wait_for_events(raw, 10);
      continue;
    }
    const auto* h = static_cast<const kestrel_record_header*>(record);
    if (h->type == KESTREL_EVT_DROP_MARKER) continue;
    const auto* p = static_cast<const uint8_t*>(record);
    stream.offsets.push_back(static_cast<uint32_t>(stream.bytes.size()));
    stream.bytes.insert(stream.bytes.end(), p, p + h->len);
  }
  for (pid_t group : load) {
    kill(group, SIGKILL);  // the whole group: the load and what it runs
    waitpid(-group, nullptr, 0);
  }
  // The groups' other processes were reparented; the cgroups empty once
  // they are reaped, which their removal waits for.
  if (cgroups) {
    for (int tries = 0; tries < 100 && !cgroups->Empty(); ++tries) usleep(10'000);
  }
  pman_detach(raw);
  pman_stats stats{};
  if (pman_get_stats(raw, &stats, nullptr, 0) == 0) {
    stream.drops = stats.total.drops_ring_full + stats.total.drops_no_ring +
                   stats.total.drops_too_large + stats.total.drops_settings_busy;
  }
  if (stream.offsets.empty()) return absl::InternalError("the workload produced no records");
  return stream;
}

}  // namespace kestrel::bench
