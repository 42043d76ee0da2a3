// The per-rule token bucket: a burst, then the rate, each rule on its own.
#include "agent/outputs/rate_limiter.h"

#include <gtest/gtest.h>

namespace kestrel::agent::outputs {
using engine::alerts::Alert;
namespace {

constexpr uint64_t kSecond = 1000000000;

TEST(RateLimiterTest, NoRateMeansNoLimit) {
  RateLimiter limiter(RateLimit{0, 1});
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(limiter.Allow("r", 0));
}

TEST(RateLimiterTest, BurstThenRefillAtTheRate) {
  RateLimiter limiter(RateLimit{2, 3});  // 2 alerts/s, bursts of 3
  const uint64_t t0 = 100 * kSecond;
  EXPECT_TRUE(limiter.Allow("r", t0));
  EXPECT_TRUE(limiter.Allow("r", t0));
  EXPECT_TRUE(limiter.Allow("r", t0));
  EXPECT_FALSE(limiter.Allow("r", t0));
  EXPECT_FALSE(limiter.Allow("r", t0 + kSecond / 4));  // half a token
  EXPECT_TRUE(limiter.Allow("r", t0 + kSecond / 2));   // one token
  EXPECT_FALSE(limiter.Allow("r", t0 + kSecond / 2));
  // A long quiet spell refills only up to the burst.
  EXPECT_TRUE(limiter.Allow("r", t0 + 60 * kSecond));
  EXPECT_TRUE(limiter.Allow("r", t0 + 60 * kSecond));
  EXPECT_TRUE(limiter.Allow("r", t0 + 60 * kSecond));
  EXPECT_FALSE(limiter.Allow("r", t0 + 60 * kSecond));
}

TEST(RateLimiterTest, EachRuleHasItsOwnBucket) {
  RateLimiter limiter(RateLimit{1, 1});
  EXPECT_TRUE(limiter.Allow("noisy", kSecond));
  EXPECT_FALSE(limiter.Allow("noisy", kSecond));
  EXPECT_TRUE(limiter.Allow("quiet", kSecond));
}

TEST(RateLimiterTest, ClockGoingBackNeitherRefillsNorBreaks) {
  RateLimiter limiter(RateLimit{1, 1});
  EXPECT_TRUE(limiter.Allow("r", 10 * kSecond));
  EXPECT_FALSE(limiter.Allow("r", 5 * kSecond));
  EXPECT_TRUE(limiter.Allow("r", 11 * kSecond));
}

}  // namespace
}  // namespace kestrel::agent::outputs
