// `kestrel run` (or another verb) started by a bench from its own binary
// (/proc/self/exe), stdout to /dev/null, its stderr (the start-up, stats
// and final lines) read line by line on a pipe.
#ifndef KESTREL_TOOLS_BENCH_KESTREL_RUN_CHILD_H_
#define KESTREL_TOOLS_BENCH_KESTREL_RUN_CHILD_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::bench {

class KestrelRunChild {
 public:
  // `kestrel run ARGS...`.
  static absl::StatusOr<KestrelRunChild> Start(const std::vector<std::string>& args);
  // `kestrel VERB ARGS...`.
  static absl::StatusOr<KestrelRunChild> StartVerb(const std::string& verb,
                                                   const std::vector<std::string>& args);

  KestrelRunChild(KestrelRunChild&& other) noexcept;
  KestrelRunChild& operator=(KestrelRunChild&&) = delete;
  ~KestrelRunChild();  // SIGKILL and reap, if still running

  pid_t pid() const { return pid_; }

  // New complete stderr lines, waiting at most `timeout_ms` for the first.
  std::vector<std::string> Read(int timeout_ms);

  // SIGINT, then its remaining lines until it exits (SIGKILL after 30 s);
  // its exit status, or 128 + the signal.
  int Stop();

  // Every stderr line so far.
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  KestrelRunChild(pid_t pid, int err) : pid_(pid), err_(err) {}

  pid_t pid_;
  int err_;
  std::string partial_;
  std::vector<std::string> lines_;
};

// The unsigned number right after `key` in `line`, if any.
std::optional<uint64_t> NumberAfter(std::string_view line, std::string_view key);

// A run's last words on its records: "records attempted A: consumed C ...,
// left unread U, dropped D (...); written W ...".
struct RunAccounting {
  uint64_t attempted = 0, consumed = 0, left_unread = 0, dropped = 0, written = 0;
};

// The accounting line among `lines`, if the run printed a whole one.
std::optional<RunAccounting> FinalAccounting(const std::vector<std::string>& lines);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_KESTREL_RUN_CHILD_H_
