// Falco's outputs.rate / outputs.max_burst, per rule: each rule has a token
// bucket, so one noisy rule cannot drown the others' alerts.
#ifndef KESTREL_AGENT_OUTPUTS_RATE_LIMITER_H_
#define KESTREL_AGENT_OUTPUTS_RATE_LIMITER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"

namespace kestrel::agent::outputs {

struct RateLimit {
  double tokens_per_second = 0;  // 0: no limit
  double max_burst = 1000;       // the bucket's size, and what it starts with
};

class RateLimiter {
 public:
  explicit RateLimiter(RateLimit limit) : limit_(limit) {}

  // Whether an alert of `rule` at `now_ns` (any monotonic clock) may go
  // out; takes a token when it may.
  bool Allow(std::string_view rule, uint64_t now_ns);

 private:
  struct Bucket {
    double tokens;
    uint64_t last_ns;
  };

  RateLimit limit_;
  absl::flat_hash_map<std::string, Bucket> buckets_;
};

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_RATE_LIMITER_H_
