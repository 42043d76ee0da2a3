// Other tracers the bench measures on the same loops in the same run, when
// they are installed: Debian's bpftrace and libbpf-tools. The bench installs
// nothing; a missing peer is reported as skipped.
#ifndef KESTREL_TOOLS_BENCH_PEER_PROCESS_H_
#define KESTREL_TOOLS_BENCH_PEER_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::bench {

struct PeerSpec {
  std::string label;    // row name, e.g. "bpftrace (count syscalls)"
  std::string program;  // looked up on PATH, /usr/sbin, /sbin
  std::vector<std::string> args;
  std::string ready_text;  // the peer has attached once it printed this
  int settle_ms = 0;       // extra wait after ready_text (bpftrace prints it before attaching)
};

std::vector<PeerSpec> KnownPeers();

// The absolute path of `program`, if installed.
std::optional<std::string> FindProgram(const std::string& program);

// One running peer. Its output is read and discarded as it comes, so it
// never blocks on a full pipe. Stopped with SIGINT (then SIGKILL) on
// destruction.
class PeerProcess {
 public:
  static absl::StatusOr<std::unique_ptr<PeerProcess>> Start(const PeerSpec& spec,
                                                            const std::string& path);
  ~PeerProcess();

  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;

 private:
  PeerProcess(pid_t pid, int out_fd) : pid_(pid), out_fd_(out_fd) {}

  pid_t pid_;
  int out_fd_;
  std::thread discard_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_PEER_PROCESS_H_
