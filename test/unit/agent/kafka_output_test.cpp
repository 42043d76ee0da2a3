// The Kafka channel against librdkafka's in-process mock cluster: alerts
// produced and read back by a consumer (exact JSON bodies, the rule's name
// as the key), the broker taken away and brought back (nothing lost), a
// message timeout, a full producer queue, a stop while the broker is down
// (bounded, the undelivered counted), and bad properties refused at start.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../../support/kafka_topic.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/config/run_config.h"
#include "agent/outputs/alert_outputs.h"

namespace kestrel::agent::outputs {
using engine::alerts::Alert;
using engine::alerts::FieldJsonKind;
namespace rules = engine::rules;
namespace kafka_test {  // the unity build shares one unit with the other tests
namespace {

using namespace std::chrono_literals;

constexpr char kTopic[] = "alerts";
constexpr int kPartitions = 3;

bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

Alert MakeAlert(std::string output, std::string rule,
                rules::Priority priority = rules::Priority::kCritical) {
  Alert a;
  a.time_ns = 1700000000000000000ull;
  a.rule = std::move(rule);
  a.priority = priority;
  a.output = std::move(output);
  a.output_fields = {{"proc.name", "cat", FieldJsonKind::kString}};
  a.tags = {"test"};
  a.hostname = "h";
  return a;
}

std::string CausesOf(const std::vector<AlertOutputs::CauseCount>& causes) {
  std::string text;
  for (const AlertOutputs::CauseCount& c : causes) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", c.cause, " ", c.count);
  }
  return text;
}

AlertOutputs::ChannelStats KafkaStats(const AlertOutputs& outputs) {
  for (const AlertOutputs::ChannelStats& s : outputs.Stats()) {
    if (s.name == "kafka") return s;
  }
  ADD_FAILURE() << "no kafka channel";
  return {};
}

using Consumed = testing::KafkaMessage;

class KafkaOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::StartMockKafka(kTopic, kPartitions, &rk_, &cluster_, &bootstraps_);
    if (HasFatalFailure()) return;
  }
  void TearDown() override { testing::StopMockKafka(rk_, cluster_); }

  OutputsConfig Config() const {
    OutputsConfig c;
    c.stdout_enabled = false;
    c.kafka.enabled = true;
    c.kafka.brokers = bootstraps_;
    c.kafka.topic = kTopic;
    // Reconnects soon once the broker is back (librdkafka's default backs
    // off up to 10 s); also shows properties pass through.
    c.kafka.properties = {{"reconnect.backoff.max.ms", "200"}, {"linger.ms", "5"}};
    return c;
  }

  std::vector<Consumed> ConsumeAll(size_t want) {
    return testing::ConsumeKafkaTopic(bootstraps_, kTopic, kPartitions, want);
  }

  rd_kafka_t* rk_ = nullptr;  // holds the mock cluster
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
  std::string bootstraps_;
};

// The alerts of three rules, interleaved, each with its own output.
std::vector<Alert> Alerts(int n, int first = 0) {
  std::vector<Alert> alerts;
  for (int i = first; i < first + n; ++i) {
    alerts.push_back(MakeAlert(absl::StrCat("alert ", i), absl::StrCat("Rule ", i % 3),
                               i % 2 ? rules::Priority::kWarning : rules::Priority::kCritical));
  }
  return alerts;
}

// Every alert consumed exactly once, with its JSON, its rule as the key,
// its priority as the header; one rule's alerts in one partition, in order.
void ExpectConsumed(const std::vector<Consumed>& got, const std::vector<Alert>& alerts,
                    const JsonOptions& json) {
  ASSERT_EQ(got.size(), alerts.size());
  std::map<std::string, const Alert*> by_json;
  for (const Alert& a : alerts) by_json[AlertToJson(a, json)] = &a;
  ASSERT_EQ(by_json.size(), alerts.size());
  std::set<std::string> seen;
  std::map<std::string, std::set<int32_t>> partitions;
  std::map<std::string, std::vector<std::string>> order;  // per key, as consumed
  for (const Consumed& c : got) {
    auto it = by_json.find(c.value);
    ASSERT_NE(it, by_json.end()) << "unexpected message " << c.value;
    EXPECT_TRUE(seen.insert(c.value).second) << "duplicate " << c.value;
    EXPECT_EQ(c.key, it->second->rule);
    EXPECT_EQ(c.priority, engine::rules::PriorityName(it->second->priority));
    partitions[c.key].insert(c.partition);
    order[c.key].push_back(c.value);
  }
  for (const auto& [key, parts] : partitions) EXPECT_EQ(parts.size(), 1u) << key;
  std::map<std::string, std::vector<std::string>> emitted;
  for (const Alert& a : alerts) emitted[a.rule].push_back(AlertToJson(a, json));
  // Consumed per partition in order: a key's messages keep the emit order.
  EXPECT_EQ(order, emitted);
}

TEST_F(KafkaOutputTest, AlertsAreConsumedBackWithTheirJsonAndRuleKeys) {
  const OutputsConfig c = Config();
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<Alert> alerts = Alerts(30);
  for (const Alert& a : alerts) (*out)->Emit(a);
  ASSERT_TRUE(WaitFor([&] { return KafkaStats(**out).sent == alerts.size(); }))
      << KafkaStats(**out).sent;
  (*out)->Close(1s);
  const AlertOutputs::ChannelStats s = KafkaStats(**out);
  EXPECT_EQ(s.sent, 30u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_EQ(s.dropped, 0u);
  EXPECT_TRUE(s.delivers_later);
  EXPECT_EQ(s.in_flight, 0u);
  ExpectConsumed(ConsumeAll(alerts.size()), alerts, c.json);
}

TEST_F(KafkaOutputTest, ABrokerDownForTwoSecondsLosesNothing) {
  const OutputsConfig c = Config();
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<Alert> before = Alerts(10);
  for (const Alert& a : before) (*out)->Emit(a);
  ASSERT_TRUE(WaitFor([&] { return KafkaStats(**out).sent == 10; }));

  ASSERT_EQ(rd_kafka_mock_broker_set_down(cluster_, -1), RD_KAFKA_RESP_ERR_NO_ERROR);
  const std::vector<Alert> during = Alerts(50, 10);
  for (const Alert& a : during) {
    (*out)->Emit(a);
    std::this_thread::sleep_for(20ms);  // emitted over the outage's first second
  }
  std::this_thread::sleep_for(1s);
  AlertOutputs::ChannelStats s = KafkaStats(**out);
  EXPECT_EQ(s.sent, 10u);  // nothing got through while the broker was down
  EXPECT_EQ(s.in_flight, 50u);
  // The producer's own count: the 50 it holds, and perhaps a report or an
  // error event not served yet.
  EXPECT_GE(s.waiting, 50u);
  EXPECT_LE(s.waiting, 55u);
  EXPECT_EQ(s.failed, 0u);
  ASSERT_EQ(rd_kafka_mock_broker_set_up(cluster_, -1), RD_KAFKA_RESP_ERR_NO_ERROR);

  EXPECT_TRUE(WaitFor([&] { return KafkaStats(**out).sent == 60; }, 20s)) << KafkaStats(**out).sent;
  (*out)->Close(1s);
  s = KafkaStats(**out);
  EXPECT_EQ(s.sent, 60u);
  EXPECT_EQ(s.failed, 0u) << CausesOf(s.failed_by_cause);
  EXPECT_EQ(s.dropped, 0u) << CausesOf(s.dropped_by_cause);
  EXPECT_EQ(s.in_flight, 0u);
  EXPECT_EQ(s.waiting, 0u);
  std::vector<Alert> all = before;
  all.insert(all.end(), during.begin(), during.end());
  const std::vector<Consumed> got = ConsumeAll(all.size());
  // The report's figures: delivered and lost across the outage.
  std::printf("kafka down/up: emitted %zu, delivered %llu, consumed %zu, lost %zu\n", all.size(),
              static_cast<unsigned long long>(s.sent), got.size(),
              all.size() > got.size() ? all.size() - got.size() : 0);
  ExpectConsumed(got, all, c.json);
}

TEST_F(KafkaOutputTest, AnAlertPastTheMessageTimeoutFailsWithKafkasErrorName) {
  OutputsConfig c = Config();
  c.kafka.message_timeout_ms = 500;
  ASSERT_EQ(rd_kafka_mock_broker_set_down(cluster_, -1), RD_KAFKA_RESP_ERR_NO_ERROR);
  std::vector<std::string> told;
  std::mutex told_mu;
  c.on_failure = [&](const std::string& line) {
    std::lock_guard lock(told_mu);
    told.push_back(line);
  };
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (const Alert& a : Alerts(3)) (*out)->Emit(a);
  ASSERT_TRUE(WaitFor([&] { return KafkaStats(**out).failed == 3; }, 10s));
  (*out)->Close(1s);
  const AlertOutputs::ChannelStats s = KafkaStats(**out);
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(CausesOf(s.failed_by_cause), "kafka error: _MSG_TIMED_OUT 3");
  EXPECT_EQ(s.dropped, 0u);
  std::lock_guard lock(told_mu);
  ASSERT_FALSE(told.empty());
  EXPECT_TRUE(absl::StrContains(told[0], "kafka output failed (kafka error)")) << told[0];
}

TEST_F(KafkaOutputTest, StopWhileTheBrokerIsDownIsBoundedAndCountsEveryAlert) {
  OutputsConfig c = Config();
  c.kafka.queue_capacity = 5;
  std::vector<std::string> logged;  // librdkafka's errors, through on_log
  std::mutex logged_mu;
  c.kafka.on_log = [&](const std::string& line) {
    std::lock_guard lock(logged_mu);
    logged.push_back(line);
  };
  ASSERT_EQ(rd_kafka_mock_broker_set_down(cluster_, -1), RD_KAFKA_RESP_ERR_NO_ERROR);
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (const Alert& a : Alerts(8)) (*out)->Emit(a);
  // 5 taken by the producer, 3 refused by its full queue.
  ASSERT_TRUE(WaitFor([&] { return KafkaStats(**out).dropped == 3; }));
  EXPECT_EQ(KafkaStats(**out).in_flight, 5u);
  EXPECT_TRUE(WaitFor([&] { return KafkaStats(**out).waiting >= 5; }));
  const auto start = std::chrono::steady_clock::now();
  (*out)->Close(1s);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 900ms);  // the drain time was given
  EXPECT_LT(took, 3s);     // and not much more
  std::printf(
      "kafka stop with the broker down: %lld ms\n",
      static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
  const AlertOutputs::ChannelStats s = KafkaStats(**out);
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.failed, 5u);
  EXPECT_EQ(CausesOf(s.failed_by_cause), "cut off at shutdown 5");
  EXPECT_EQ(s.dropped, 3u);
  EXPECT_EQ(CausesOf(s.dropped_by_cause), "queue full 3");
  EXPECT_EQ(s.in_flight, 0u);
  EXPECT_EQ(s.waiting, 0u);  // purged and reported
  std::lock_guard lock(logged_mu);
  ASSERT_FALSE(logged.empty());
  EXPECT_TRUE(absl::StrContains(logged[0], "kafka output: _TRANSPORT: ")) << logged[0];
}

TEST_F(KafkaOutputTest, BadOptionsAreErrorsAtStartNamingThem) {
  OutputsConfig c = Config();
  c.kafka.properties = {{"no.such.property", "1"}};
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(absl::StrContains(out.status().message(), "\"no.such.property\"")) << out.status();
  EXPECT_FALSE(AlertOutputs::Check(c).ok());

  c.kafka.properties = {{"compression.codec", "nope"}};
  out = AlertOutputs::Start(c);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(absl::StrContains(out.status().message(), "compression.codec")) << out.status();

  c.kafka.properties = {{"acks", "1"}};
  out = AlertOutputs::Start(c);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(absl::StrContains(out.status().message(), "always idempotent")) << out.status();

  c.kafka.properties = {};
  c.kafka.topic = "";
  EXPECT_TRUE(absl::StrContains(AlertOutputs::Check(c).message(), "kafka_output.topic"));

  // Through the config keys: checked once every key is set.
  RunConfig config;
  std::vector<std::string> warnings;
  ASSERT_TRUE(LoadRunConfigText("kafka_output:\n"
                                "  enabled: true\n"
                                "  brokers: [a:9092, b:9092]\n"
                                "  topic: t\n"
                                "  properties:\n"
                                "    security.protocol: SASL_SSL\n"
                                "    sasl.password: hunter2\n"
                                "    bogus.key: x\n",
                                "k.yaml", config, warnings)
                  .ok());
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(KafkaOptionsOf(config).brokers, "a:9092,b:9092");
  const absl::Status s = CheckRunConfig(config);
  EXPECT_TRUE(absl::StrContains(s.message(), "\"bogus.key\"")) << s;
  const std::string json = RunConfigJson(config);
  EXPECT_TRUE(absl::StrContains(
      json,
      R"js("kafka_output.properties":{"security.protocol":"SASL_SSL","sasl.password":"(hidden)","bogus.key":"x"})js"))
      << json;
  EXPECT_FALSE(absl::StrContains(json, "hunter2"));
  ASSERT_TRUE(ApplyRunOverride("kafka_output.properties={bogus.key: x}", config).ok());
  config.kafka_output.properties = {};
  ASSERT_TRUE(ApplyRunOverride("kafka_output.properties={linger.ms: 10}", config).ok());
  EXPECT_TRUE(CheckRunConfig(config).ok()) << CheckRunConfig(config);
}

}  // namespace
}  // namespace kafka_test
}  // namespace kestrel::agent::outputs
