// Runs the built `kestrel` binary the way a user does: a separate process
// with its own argv, stdout and stderr, and an exit status.
#ifndef KESTREL_TEST_E2E_KESTREL_PROCESS_H_
#define KESTREL_TEST_E2E_KESTREL_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"

namespace kestrel::e2e {

// How long a test waits for an alert or a line it expects from `kestrel run`.
inline constexpr auto kAlertTimeout = std::chrono::seconds(20);

inline bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// The non-empty lines of a command's output.
// /proc/PID/maps of a process: the files it has mapped, one per line.
inline std::string MappedFiles(pid_t pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::stringstream all;
  all << maps.rdbuf();
  return all.str();
}

inline std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

// What a finished run left behind. `exit_code` is the status passed to
// exit(), or 128 + N when signal N killed it (as a shell reports it).
struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `kestrel ARGS...` to completion, with stdin from /dev/null. A run
// still going after `timeout` is killed with SIGKILL and fails the test.
CliResult RunKestrel(const std::vector<std::string>& args,
                     std::chrono::milliseconds timeout = std::chrono::seconds(60));

// The same as an unprivileged user: uid and gid `id`, no supplementary
// groups, no capabilities.
CliResult RunKestrelAs(uid_t id, const std::vector<std::string>& args,
                       std::chrono::milliseconds timeout = std::chrono::seconds(60));

// Who a KestrelProcess runs as: root (the default), or uid and gid `uid`
// with no supplementary groups and no capabilities but, with `bpf_caps`,
// CAP_BPF and CAP_PERFMON (ambient, as `setpriv --ambient-caps` gives).
// With `no_syslog_socket`, it runs in a mount namespace of its own where
// /dev/log leads to no socket, as on a host without a syslog daemon,
// whether this host has one or not.
struct RunAs {
  uid_t uid = 0;
  bool bpf_caps = false;
  bool no_syslog_socket = false;
  // When set, /etc/hosts is this file in a mount namespace of its own (the
  // names Kestrel resolves, with no change to the host's).
  const char* hosts_file = nullptr;
};

// A `kestrel` running in the background, for captures that must be watched
// while something else happens (a second command, a triggered syscall).
class KestrelProcess {
 public:
  // With `as_user`, runs as that uid and gid (see RunKestrelAs).
  explicit KestrelProcess(const std::vector<std::string>& args,
                          std::optional<uid_t> as_user = std::nullopt)
      : KestrelProcess(args,
                       as_user ? std::optional<RunAs>(RunAs{.uid = *as_user}) : std::nullopt) {}
  KestrelProcess(const std::vector<std::string>& args, std::optional<RunAs> as);
  ~KestrelProcess();  // kills (SIGKILL) and reaps a process still running
  KestrelProcess(const KestrelProcess&) = delete;
  KestrelProcess& operator=(const KestrelProcess&) = delete;

  pid_t pid() const { return pid_; }

  // The next complete stdout line (without '\n'), or nullopt once `timeout`
  // passed or stdout closed.
  std::optional<std::string> ReadLine(std::chrono::milliseconds timeout);

  // Reads stdout lines until one contains `needle`; returns it, or nullopt
  // after `timeout`. Every line read is kept in lines().
  std::optional<std::string> WaitForLine(const std::string& needle,
                                         std::chrono::milliseconds timeout);

  // Reads until stderr holds `needle` at least `count` times; false after
  // `timeout`. Stdout read meanwhile is kept for ReadLine.
  bool WaitForStderr(const std::string& needle, size_t count, std::chrono::milliseconds timeout);

  // Everything read from stdout so far, one entry per line.
  const std::vector<std::string>& lines() const { return lines_; }

  void Signal(int sig);

  // Waits for exit (SIGKILL after `timeout`) and returns the rest of stdout,
  // all of stderr and the exit code. Lines already read are in out too.
  CliResult Wait(std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  void Pump(std::chrono::milliseconds timeout);

  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string out_buf_;  // stdout not yet split into lines
  std::string all_out_;
  std::string err_;
  std::vector<std::string> lines_;
  bool out_closed_ = false;
  bool err_closed_ = false;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_KESTREL_PROCESS_H_
