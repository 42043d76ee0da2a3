// The soak's reloads: `kestrel run`'s rules reloaded by SIGHUP every few
// seconds, and once, mid-run, its rules file broken for a few seconds, so
// that reloads fail and the rules already loaded keep running. The run's
// stderr says how each reload went; this tells the outcomes expected from
// the others.
#ifndef KESTREL_TOOLS_BENCH_SOAK_RELOADS_H_
#define KESTREL_TOOLS_BENCH_SOAK_RELOADS_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace kestrel::bench {

class SoakReloads {
 public:
  static constexpr double kPeriodS = 5;  // between two SIGHUPs, but in a short soak

  // `rules_file` is a rules file of the run, a copy holding `good`, which
  // this rewrites. The broken window lies mid-run, between two SIGHUPs,
  // with one SIGHUP inside it.
  SoakReloads(pid_t run, std::string rules_file, std::string good, double duration_s);

  // Does what is due `t_s` seconds into the soak: a SIGHUP, breaking the
  // file or putting it back. An error when the file cannot be written.
  absl::Status Tick(double t_s);

  // One stderr line of the run.
  void See(const std::string& line);

  struct Tally {
    int sighups = 0;
    int reloaded = 0;  // reloads done with the good file
    int refused = 0;   // failed with the broken file, as they must
    // A reload that failed with the good file, or was done with the broken one.
    int unexpected = 0;
    double broken_from_s = -1, broken_to_s = -1;  // -1: not (yet)
    uint64_t alerts_while_broken = 0;             // from the run's stats lines
  };
  const Tally& tally() const { return tally_; }
  double period_s() const { return period_s_; }

 private:
  enum class Phase { kGood, kBroken, kRestored, kGoodAgain };

  absl::Status Write(const std::string& text);

  pid_t run_;
  std::string rules_file_;
  std::string good_;
  double period_s_;
  double break_at_s_;
  double restore_at_s_;
  double next_sighup_s_;
  Phase phase_ = Phase::kGood;
  uint64_t alerts_ = 0;  // the last stats line's
  uint64_t alerts_at_break_ = 0;
  Tally tally_;
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_SOAK_RELOADS_H_
