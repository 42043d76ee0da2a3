// Falco's syscall_event_drops and syscall_event_timeouts: what the reader
// does when the probe drops records, and when the rings stay empty.
#ifndef KESTREL_AGENT_OBSERVE_EVENT_DROPS_H_
#define KESTREL_AGENT_OBSERVE_EVENT_DROPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/alerts/alert.h"

namespace kestrel::agent::observe {

// Falco's token bucket: `rate` tokens a second up to `max_tokens`, full at
// the start.
class TokenBucket {
 public:
  TokenBucket(double rate, double max_tokens)
      : rate_(rate), max_(max_tokens), tokens_(max_tokens) {}
  // Takes one token at `now_ns` (a monotonic clock) if there is one.
  bool Claim(uint64_t now_ns);

 private:
  double rate_;
  double max_;
  double tokens_;
  uint64_t last_ns_ = 0;
};

// The probe's totals a check compares: records attempted and dropped.
struct DropTotals {
  uint64_t events = 0;  // records written plus dropped
  uint64_t drops = 0;
  uint64_t drops_ring_full = 0;
  uint64_t drops_too_large = 0;
  uint64_t drops_no_ring = 0;
  uint64_t drops_settings_busy = 0;
  uint64_t drops_sampling = 0;
};

struct DropConfig {
  double threshold = 0.1;
  std::vector<std::string> actions;  // ignore | log | alert | exit
  double rate = 0.03333;
  double max_burst = 1;
  bool simulate_drops = false;
};

class DropWatch {
 public:
  DropWatch(DropConfig config, DropTotals start);

  // Once per stats interval (a second): what the probe dropped since the
  // last check when its share is over the threshold and the bucket has a
  // token (nullopt: nothing to do). With simulate_drops every check counts
  // one drop more, whatever the threshold.
  std::optional<DropTotals> Check(const DropTotals& now, uint64_t now_ns);

  const DropConfig& config() const { return config_; }
  uint64_t detected() const { return detected_; }  // checks over the threshold
  uint64_t acted() const { return acted_; }        // of those, with a token

 private:
  DropConfig config_;
  TokenBucket bucket_;
  DropTotals last_;
  uint64_t detected_ = 0;
  uint64_t acted_ = 0;
};

inline constexpr char kDropRule[] = "Falco internal: syscall event drop";
// "Falco internal: syscall event drop. N system calls dropped in last second."
std::string DropMessage(const DropTotals& delta);
// The internal alert of the `alert` action: priority Debug as Falco's,
// source "internal", the counts in output_fields.
engine::alerts::Alert DropAlert(uint64_t wall_ns, const DropTotals& delta);

// syscall_event_timeouts.max_consecutives: Read(true) for a read that found
// records, Read(false) for one that found none; true once per idle period,
// at the max_consecutives-th empty read in a row.
class IdleWatch {
 public:
  explicit IdleWatch(uint64_t max_consecutives) : max_(max_consecutives) {}
  bool Read(bool found);

 private:
  uint64_t max_;
  uint64_t empty_ = 0;
};

}  // namespace kestrel::agent::observe

#endif  // KESTREL_AGENT_OBSERVE_EVENT_DROPS_H_
