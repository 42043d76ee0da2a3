// The observe pieces without a kernel: Prometheus text, the snapshot's
// fields, the drop check's threshold and token bucket, the idle notice.
#include <gtest/gtest.h>

#include "agent/observe/event_drops.h"
#include "agent/observe/metrics.h"

namespace kestrel::agent::observe {
namespace {

constexpr uint64_t kSecond = 1000000000;

std::vector<Metric> TwoMetrics() {
  std::vector<Metric> m(3);
  m[0] = {"kestrel_x_total",
          "x help",
          MetricType::kCounter,
          MetricGroup::kAlways,
          {{"rule_name", "a \"q\" \\ b\nc"}},
          3,
          false};
  m[1] = {"kestrel_x_total",
          "x help",
          MetricType::kCounter,
          MetricGroup::kAlways,
          {{"rule_name", "other"}},
          0,
          false};
  m[2] = {"falcosecurity_falco_memory_rss_bytes",
          "rss",
          MetricType::kGauge,
          MetricGroup::kResources,
          {},
          2 * 1024 * 1024,
          true};
  return m;
}

TEST(ObserveTest, PrometheusTextOneTypeLinePerNameAndEscapedLabels) {
  EXPECT_EQ(PrometheusText(TwoMetrics(), MetricGroups{}),
            "# HELP kestrel_x_total x help\n# TYPE kestrel_x_total counter\n"
            "kestrel_x_total{rule_name=\"a \\\"q\\\" \\\\ b\\nc\"} 3\n"
            "kestrel_x_total{rule_name=\"other\"} 0\n"
            "# HELP falcosecurity_falco_memory_rss_bytes rss\n"
            "# TYPE falcosecurity_falco_memory_rss_bytes gauge\n"
            "falcosecurity_falco_memory_rss_bytes 2097152\n");
  MetricGroups no_resources;
  no_resources.resources = false;
  EXPECT_EQ(PrometheusText(TwoMetrics(), no_resources).find("memory"), std::string::npos);
}

TEST(ObserveTest, SnapshotFieldsConvertMemoryAndLeaveZerosOut) {
  const engine::alerts::OutputFields f = MetricsFields(TwoMetrics(), MetricGroups{}, true, false);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].name, "kestrel.x.a \"q\" \\ b\nc");
  EXPECT_EQ(f[0].value, "3");
  EXPECT_EQ(f[1].name, "falco.memory_rss_mb");
  EXPECT_EQ(f[1].value, "2.00");
  const engine::alerts::OutputFields all = MetricsFields(TwoMetrics(), MetricGroups{}, false, true);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].name, "falco.memory_rss_bytes");
  EXPECT_EQ(all[2].value, "2097152");
}

// Kafka's lag (in flight, the producer's queue) as gauges of its own, and
// every channel's failures and drops by cause; a channel that delivers at
// once has no lag to show.
TEST(ObserveTest, ChannelsShowLagAndFailuresByCause) {
  MetricsInput in;
  outputs::AlertOutputs::ChannelStats& kafka = in.channels.emplace_back();
  kafka.name = "kafka";
  kafka.sent = 10;
  kafka.failed = 3;
  kafka.delivers_later = true;
  kafka.in_flight = 50;
  kafka.waiting = 52;
  kafka.failed_by_cause = {{"kafka error: _MSG_TIMED_OUT", 2}, {"cut off at shutdown", 1}};
  kafka.dropped_by_cause = {{"queue full", 4}};
  outputs::AlertOutputs::ChannelStats& file = in.channels.emplace_back();
  file.name = "file";
  file.sent = 1;
  const std::string text = PrometheusText(CollectMetrics(in), MetricGroups{});
  for (const char* line : {
           "# TYPE kestrel_output_in_flight gauge\n"
           "kestrel_output_in_flight{channel=\"kafka\"} 50\n",
           "# TYPE kestrel_output_waiting gauge\n"
           "kestrel_output_waiting{channel=\"kafka\"} 52\n",
           "# TYPE kestrel_output_failures_total counter\n"
           "kestrel_output_failures_total{channel=\"kafka\",cause=\"kafka error: _MSG_TIMED_OUT\"} "
           "2\n"
           "kestrel_output_failures_total{channel=\"kafka\",cause=\"cut off at shutdown\"} 1\n",
           "kestrel_output_drops_total{channel=\"kafka\",cause=\"queue full\"} 4\n",
           "kestrel_output_sent_total{channel=\"file\"} 1\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\nin\n" << text;
  }
  EXPECT_EQ(text.find("kestrel_output_in_flight{channel=\"file\"}"), std::string::npos) << text;
  EXPECT_EQ(text.find("kestrel_output_waiting{channel=\"file\"}"), std::string::npos) << text;
}

TEST(ObserveTest, DropsOverTheThresholdActAsTheBucketAllows) {
  DropConfig config;
  config.threshold = 0.1;
  config.actions = {"alert"};
  config.rate = 1;
  config.max_burst = 2;
  DropWatch watch(config, DropTotals{});
  DropTotals t;
  t.events = 1000;
  t.drops = 50;  // 5 %: under the threshold
  EXPECT_FALSE(watch.Check(t, 1 * kSecond));
  t.events += 100;
  t.drops += 20;  // 20 % of the last second's
  std::optional<DropTotals> d = watch.Check(t, 2 * kSecond);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->drops, 20u);
  EXPECT_EQ(d->events, 100u);
  t.drops += 20;
  EXPECT_TRUE(watch.Check(t, 2 * kSecond));  // the burst's second token
  t.drops += 20;
  EXPECT_FALSE(watch.Check(t, 2 * kSecond));  // none left
  t.drops += 20;
  EXPECT_TRUE(watch.Check(t, 3 * kSecond));  // one a second
  EXPECT_EQ(watch.detected(), 4u);
  EXPECT_EQ(watch.acted(), 3u);
}

TEST(ObserveTest, SimulatedDropsCountEveryCheck) {
  DropConfig config;
  config.simulate_drops = true;
  config.rate = 0;
  config.max_burst = 1;
  DropWatch watch(config, DropTotals{});
  DropTotals t;
  t.events = 1000000;
  std::optional<DropTotals> d = watch.Check(t, kSecond);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->drops, 1u);
  EXPECT_FALSE(watch.Check(t, 100 * kSecond));  // rate 0: the burst only
  EXPECT_EQ(watch.detected(), 2u);
  EXPECT_NE(DropMessage(*d).find("1 system calls dropped in last second"), std::string::npos);
  EXPECT_EQ(DropAlert(0, *d).rule, "Falco internal: syscall event drop");
}

TEST(ObserveTest, IdleNoticeOncePerIdlePeriod) {
  IdleWatch idle(3);
  EXPECT_FALSE(idle.Read(false));
  EXPECT_FALSE(idle.Read(false));
  EXPECT_TRUE(idle.Read(false));
  EXPECT_FALSE(idle.Read(false));
  EXPECT_FALSE(idle.Read(true));
  EXPECT_FALSE(idle.Read(false));
  EXPECT_FALSE(idle.Read(false));
  EXPECT_TRUE(idle.Read(false));
  IdleWatch off(0);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(off.Read(false));
}

}  // namespace
}  // namespace kestrel::agent::observe
