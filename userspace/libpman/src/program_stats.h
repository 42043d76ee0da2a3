// What loading each BPF program cost the kernel: instructions the verifier
// walked (bpf_prog_info.verified_insns) and the time it took, which the
// kernel reports only in the verifier log (BPF_LOG_STATS).
#ifndef KESTREL_LIBPMAN_PROGRAM_STATS_H_
#define KESTREL_LIBPMAN_PROGRAM_STATS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct bpf_object;
struct bpf_program;

namespace kestrel::pman {

struct ProgramLoadStats {
  std::string name;
  bool loaded = false;
  uint32_t verified_insns = 0;
  uint64_t verification_time_us = 0;  // 0 when not known
};

// "verification time N usec" in a verifier log, or 0.
uint64_t ParseVerificationTimeUs(std::string_view log);

// verified_insns of the loaded program `prog_fd`, or 0 when unreadable.
uint32_t VerifiedInsns(int prog_fd);

// Gives every program `obj` will load a small stats-only verifier log, so
// its verification time can be read after the load. Keep it alive until
// Collect.
class VerifierStatsLogs {
 public:
  explicit VerifierStatsLogs(bpf_object* obj);

  // Test only: a full verifier log in a buffer far too small for it, which
  // the kernel answers by refusing the load (ENOSPC): a real load failure.
  static VerifierStatsLogs Overflowing(bpf_object* obj);

  // After the load: one entry per program set to load.
  std::vector<ProgramLoadStats> Collect() const;

  VerifierStatsLogs(VerifierStatsLogs&&) = default;

 private:
  VerifierStatsLogs(bpf_object* obj, uint32_t log_level, size_t log_bytes);

  struct Log {
    bpf_program* prog;
    std::unique_ptr<char[]> buf;
  };
  std::vector<Log> logs_;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PROGRAM_STATS_H_
