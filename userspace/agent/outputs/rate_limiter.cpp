#include "agent/outputs/rate_limiter.h"

#include <algorithm>

namespace kestrel::agent::outputs {

bool RateLimiter::Allow(std::string_view rule, uint64_t now_ns) {
  if (limit_.tokens_per_second <= 0) return true;
  auto [it, added] = buckets_.try_emplace(std::string(rule), Bucket{limit_.max_burst, now_ns});
  Bucket& b = it->second;
  if (!added && now_ns > b.last_ns) {
    const double elapsed_s = static_cast<double>(now_ns - b.last_ns) / 1e9;
    b.tokens = std::min(limit_.max_burst, b.tokens + elapsed_s * limit_.tokens_per_second);
    b.last_ns = now_ns;
  }
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

}  // namespace kestrel::agent::outputs
