// Load shedding for `kestrel run`. When the reader falls behind, a ring
// that fills loses records blindly, whatever rule needed them. Before that
// happens the probe is switched to dropping mode, where it keeps only 1 in
// N calls of the syscalls that no rule at or above a chosen priority needs
// (nor the state), and back to everything once the backlog has cleared.
// Each switch is logged, emitted as an internal alert and counted.
#ifndef KESTREL_AGENT_CONTROL_LOAD_SHEDDING_H_
#define KESTREL_AGENT_CONTROL_LOAD_SHEDDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "agent/config/run_config.h"
#include "agent/rules/syscall_set.h"
#include "engine/alerts/alert.h"
#include "engine/rules/priority.h"

struct pman_handle;

namespace kestrel::agent {

// What dropping mode may thin for a syscall set and its rules.
struct SheddingPlan {
  // KESTREL_DROP_* by syscall id: DROP_SAMPLED for `sampled`, DROP_NEVER
  // for everything else.
  std::vector<uint8_t> classes;
  std::vector<uint32_t> sampled;  // ids of the set, increasing
  // A kept rule with no evt.type constraint needs every syscall: its name,
  // and nothing is sampled.
  std::string rule_needing_all;
};

// Samples the syscalls of `set` that neither the state
// (engine::StateSyscalls()) nor a rule of `rules` at or above `keep`
// can match.
SheddingPlan PlanShedding(const std::vector<ChosenSyscall>& set,
                          const std::vector<RuleSyscalls>& rules, engine::rules::Priority keep,
                          size_t table_size);

// One line for people: what would be thinned, and from what fill; or why
// nothing can be.
std::string DescribeShedding(const SheddingPlan& plan, const LoadSheddingConfig& config);

// What the switch decides from.
struct LoadSample {
  double fill = 0;  // the fullest ring's unread share, 0..1
  uint64_t now_ns = 0;
  // Records per second the probe would write with nothing thinned: written,
  // sampled out and lost to a full ring.
  double input_rate = 0;
  // Records per second the reader consumed while it was behind: what it
  // can take, starved or not; 0 while not known.
  double capacity = 0;
};

// When to switch: on when the fullest ring reaches start_fill; off once
// every ring is back at stop_fill, shedding has lasted min_seconds, and
// the whole input would fit in kHeadroom of the reader's capacity again.
// The backlog alone is not enough to stop on: thinning is what drained
// it, and a reader that is starved would be overrun again at once.
class SheddingSwitch {
 public:
  enum class Change { kNone, kStart, kStop };
  static constexpr double kHeadroom = 0.8;

  explicit SheddingSwitch(const LoadSheddingConfig& config) : config_(config) {}
  Change Observe(const LoadSample& sample);
  bool on() const { return on_; }
  uint64_t on_since_ns() const { return since_ns_; }

 private:
  LoadSheddingConfig config_;
  bool on_ = false;
  uint64_t since_ns_ = 0;
};

// The switch wired to a running probe. Not thread-safe: the consumer loop
// calls it between batches.
class LoadShedder {
 public:
  struct Counters {
    uint64_t starts = 0;
    uint64_t stops = 0;
  };

  // `handle` must outlive the shedder.
  LoadShedder(const LoadSheddingConfig& config, pman_handle* handle)
      : config_(config), handle_(handle), switch_(config) {}

  // Sets the probe's drop classes from `plan` (at start and after a
  // reload); while shedding, the new classes apply at once.
  absl::Status Apply(SheddingPlan plan);

  // Looks at the backlog and switches if it is time; `consumed` counts the
  // records the reader has taken so far. On a switch returns the internal
  // alert to emit (its time `wall_ns`, ns since the epoch).
  // An error (the probe refused the change: settings locked) is returned
  // once, and the shedder stays idle from then on.
  absl::StatusOr<std::optional<engine::alerts::Alert>> Check(uint64_t now_ns, uint64_t wall_ns,
                                                             uint64_t consumed);

  const Counters& counters() const { return counters_; }
  bool on() const { return switch_.on(); }

 private:
  // Rates are measured over intervals of at least this.
  static constexpr uint64_t kRateIntervalNs = 100'000'000;
  struct RateMark {
    uint64_t at_ns = 0;
    uint64_t input = 0;     // records attempted by the probe (markers are not records)
    uint64_t consumed = 0;  // records taken by the reader
    double fill = 0;
  };

  // Updates sample_'s rates once an interval has passed.
  void MeasureRates(uint64_t now_ns, uint64_t consumed, double fill);
  absl::Status SetDroppingMode(bool on);
  engine::alerts::Alert BaseAlert(int fill_pct, uint64_t wall_ns) const;
  engine::alerts::Alert StartAlert(int fill_pct, uint64_t wall_ns) const;
  engine::alerts::Alert StopAlert(int fill_pct, uint64_t duration_ms, uint64_t left_out,
                                  uint64_t wall_ns) const;

  LoadSheddingConfig config_;
  pman_handle* handle_;
  SheddingSwitch switch_;
  SheddingPlan plan_;
  Counters counters_;
  std::optional<RateMark> mark_;
  LoadSample sample_;
  uint64_t sampled_at_start_ = 0;  // the probe's drops_sampling when shedding began
  bool failed_ = false;
};

// The internal alerts' rule name.
inline constexpr char kLoadSheddingRule[] = "Kestrel internal: load shedding";

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONTROL_LOAD_SHEDDING_H_
