#include "program_stats.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstdlib>
#include <memory>

namespace kestrel::pman {
namespace {

// BPF_LOG_STATS: the verifier logs only its summary, not each instruction.
constexpr uint32_t kLogStats = 4;
// The summary is a few lines, but subprograms and BTF notes add some: a
// log the kernel truncates fails the load (ENOSPC), so leave ample room.
constexpr size_t kStatsLogBytes = 64 * 1024;
// Every instruction (BPF_LOG_LEVEL1) into the smallest log the kernel takes.
constexpr uint32_t kLogEveryInsn = 1;
constexpr size_t kOverflowingLogBytes = 128;

}  // namespace

uint64_t ParseVerificationTimeUs(std::string_view log) {
  constexpr std::string_view kKey = "verification time ";
  const size_t at = log.find(kKey);
  if (at == std::string_view::npos) return 0;
  uint64_t us = 0;
  size_t i = at + kKey.size();
  bool digits = false;
  for (; i < log.size() && log[i] >= '0' && log[i] <= '9'; ++i) {
    us = us * 10 + static_cast<uint64_t>(log[i] - '0');
    digits = true;
  }
  if (!digits || log.substr(i).rfind(" usec", 0) != 0) return 0;
  return us;
}

uint32_t VerifiedInsns(int prog_fd) {
  bpf_prog_info info{};
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) != 0) return 0;
  return info.verified_insns;
}

VerifierStatsLogs::VerifierStatsLogs(bpf_object* obj)
    : VerifierStatsLogs(obj, kLogStats, kStatsLogBytes) {}

VerifierStatsLogs VerifierStatsLogs::Overflowing(bpf_object* obj) {
  return VerifierStatsLogs(obj, kLogEveryInsn | kLogStats, kOverflowingLogBytes);
}

VerifierStatsLogs::VerifierStatsLogs(bpf_object* obj, uint32_t log_level, size_t log_bytes) {
  bpf_program* prog;
  bpf_object__for_each_program(prog, obj) {
    if (!bpf_program__autoload(prog)) continue;
    // Not zeroed: the kernel writes only the summary's few hundred bytes, so
    // the rest of each buffer never becomes resident during the load.
    Log log{prog, std::make_unique_for_overwrite<char[]>(log_bytes)};
    log.buf[0] = '\0';
    bpf_program__set_log_level(prog, log_level);
    bpf_program__set_log_buf(prog, log.buf.get(), log_bytes);
    logs_.push_back(std::move(log));
  }
}

std::vector<ProgramLoadStats> VerifierStatsLogs::Collect() const {
  std::vector<ProgramLoadStats> stats;
  for (const Log& log : logs_) {
    ProgramLoadStats s;
    s.name = bpf_program__name(log.prog);
    const int fd = bpf_program__fd(log.prog);
    s.loaded = fd >= 0;
    if (s.loaded) {
      s.verified_insns = VerifiedInsns(fd);
      s.verification_time_us = ParseVerificationTimeUs(log.buf.get());
    }
    stats.push_back(std::move(s));
  }
  return stats;
}

}  // namespace kestrel::pman
