// `kestrel run`'s stats line: each channel's "sent S failed F dropped D"
// as before, with the causes of its failures and drops named beside their
// figure only when there are any.
#include "agent/pipeline/stats_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"

namespace kestrel::agent {
namespace {

using ChannelStats = outputs::AlertOutputs::ChannelStats;

std::string LineFor(const std::vector<ChannelStats>& channels) {
  RunCounters counters;
  counters.events = 10;
  engine::ThreadTable threads;
  return FormatRunStats(counters, nullptr, -1, channels, 0, threads);
}

TEST(RunStatsTest, ChannelsWithoutFailuresKeepTheirWords) {
  ChannelStats stdout_stats;
  stdout_stats.name = "stdout";
  stdout_stats.sent = 5;
  EXPECT_TRUE(absl::StrContains(LineFor({stdout_stats}),
                                "; outputs: stdout sent 5 failed 0 dropped 0, rate-limited 0;"))
      << LineFor({stdout_stats});
}

TEST(RunStatsTest, FailuresAndDropsAreNamedByCause) {
  ChannelStats file;
  file.name = "file";
  file.failed = 3;
  file.failed_by_cause = {{"write error: No space left on device", 2}, {"open error", 1}};
  ChannelStats http;
  http.name = "http";
  http.sent = 1;
  http.failed = 1;
  http.dropped = 7;
  http.failed_by_cause = {{"timeout", 1}};
  http.dropped_by_cause = {{"queue full", 5}, {"closed at shutdown", 2}};
  const std::string line = LineFor({file, http});
  EXPECT_TRUE(absl::StrContains(line,
                                "; outputs: file sent 0 failed 3 (write error: No space left on "
                                "device 2, open error 1) dropped 0, http sent 1 failed 1 "
                                "(timeout 1) dropped 7 (queue full 5, closed at shutdown 2), "
                                "rate-limited 0;"))
      << line;
}

// Kafka's lag beside its figures: what has no report yet, and what the
// producer still holds.
TEST(RunStatsTest, AChannelThatDeliversLaterShowsItsLag) {
  ChannelStats kafka;
  kafka.name = "kafka";
  kafka.sent = 10;
  kafka.delivers_later = true;
  kafka.in_flight = 50;
  kafka.waiting = 50;
  const std::string line = LineFor({kafka});
  EXPECT_TRUE(absl::StrContains(
      line, "; outputs: kafka sent 10 failed 0 dropped 0 in flight 50 waiting 50, rate-limited 0;"))
      << line;
}

}  // namespace
}  // namespace kestrel::agent
