// `kestrel run` with kafka_output, through the binary: the test holds
// librdkafka's mock cluster (its broker listens on a loopback port, so the
// kestrel process connects to it as to a real one) and reads the topic
// back. A replay of the committed fixture delivers each of its 6 alerts
// exactly once, its JSON as stdout shows it, keyed by its rule; a broker
// down at start and back 2 s later loses none; alerts past the message
// timeout fail by cause; a live run shows the producer's lag in /metrics
// while the broker is down, and loses nothing once it is back.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "../support/json_value.h"
#include "../support/kafka_topic.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace kafka_e2e {  // the unity build shares one unit with the other tests
namespace {

using namespace std::chrono_literals;

constexpr char kFixture[] = KESTREL_SOURCE_DIR "/test/fixtures/capture/schema-v2.kcap";
constexpr char kTopic[] = "kestrel-alerts";
constexpr int kPartitions = 3;

// The fixture's workload (make_fixtures.sh, as run_replay_test.cpp reads
// it): kfixture opens known.txt and fails to open missing-1, -2 and -3,
// three times over: 3 alerts of each rule.
constexpr char kRules[] = R"yaml(- rule: Fixture missed a file
  desc: the fixture's workload failed to open a file
  condition: evt.type = openat and proc.name = kfixture and evt.rawres < 0 and evt.arg.name startswith /tmp/kestrel-fixture/
  output: "%proc.name could not open %evt.arg.name (%evt.res)"
  priority: ERROR
  tags: [fixture, files]
- rule: Fixture opened its known file
  desc: the fixture's workload opened known.txt
  condition: evt.type = openat and proc.name = kfixture and fd.name = "/tmp/kestrel-fixture/known.txt"
  output: "%proc.name opened %fd.name as fd %evt.rawres"
  priority: INFO
  tags: [fixture]
)yaml";
constexpr char kMissed[] = "Fixture missed a file";
constexpr char kKnown[] = "Fixture opened its known file";

using Message = testing::KafkaMessage;

// The final stats line's Kafka part, from "kafka sent" to the next channel.
std::string KafkaStats(const std::string& err) {
  const size_t line = err.find("kestrel run: events ");
  if (line == std::string::npos) return "<no stats line>";
  const size_t at = err.find(" kafka sent ", line);
  if (at == std::string::npos) return "<no kafka channel>";
  return err.substr(at + 1, err.find(',', at) - at - 1);
}

// GET /metrics over HTTP/1.0 (the answer ends at close); its body, or
// empty when nothing answered.
std::string ScrapeMetrics(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string all;
  const std::string request = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buf[8192];
    ssize_t n = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) all.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  const size_t body = all.find("\r\n\r\n");
  return body == std::string::npos ? "" : all.substr(body + 4);
}

// The value of `name{channel="kafka"}` in Prometheus text; -1 if absent.
double KafkaSample(const std::string& text, const std::string& name) {
  const std::string prefix = absl::StrCat("\n", name, "{channel=\"kafka\"} ");
  const size_t at = text.find(prefix);
  if (at == std::string::npos) return -1;
  const size_t from = at + prefix.size();
  double v = -1;
  if (!absl::SimpleAtod(text.substr(from, text.find('\n', from) - from), &v)) return -1;
  return v;
}

class RunKafkaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
    testing::StartMockKafka(kTopic, kPartitions, &rk_, &cluster_, &bootstraps_);
    if (HasFatalFailure()) return;
    WriteWhole(rules_, kRules);
  }
  void TearDown() override { testing::StopMockKafka(rk_, cluster_); }

  // kafka_output's keys, and a reconnect within 200 ms of the broker's
  // return (librdkafka's default backs off up to 10 s).
  std::vector<std::string> KafkaArgs() const {
    return {"-o", "kafka_output.enabled=true",
            "-o", absl::StrCat("kafka_output.brokers=", bootstraps_),
            "-o", absl::StrCat("kafka_output.topic=", kTopic),
            "-o", "kafka_output.properties={reconnect.backoff.max.ms: 200}"};
  }
  std::vector<std::string> ReplayArgs(const std::vector<std::string>& more = {}) const {
    std::vector<std::string> args = {
        "run", "-r", rules_, "--replay", kFixture, "-o", "json_output=true"};
    for (const std::string& a : KafkaArgs()) args.push_back(a);
    for (const std::string& a : more) args.push_back(a);
    return args;
  }

  void SetBrokerDown(bool down) {
    ASSERT_EQ(down ? rd_kafka_mock_broker_set_down(cluster_, -1)
                   : rd_kafka_mock_broker_set_up(cluster_, -1),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }

  std::vector<Message> ConsumeAll(size_t want) {
    return testing::ConsumeKafkaTopic(bootstraps_, kTopic, kPartitions, want);
  }

  // What the docs promise of each message, against the alerts kestrel
  // printed on stdout (the same JSON): each exactly once, its JSON
  // decoding to its rule and priority, keyed by the rule, the priority in
  // a header, one rule's alerts in one partition in the order emitted.
  // Returns how many of `emitted` never arrived.
  static size_t ExpectEachOnce(const std::vector<std::string>& emitted,
                               const std::vector<Message>& got) {
    std::map<std::string, int> left;  // JSON -> times still expected
    for (const std::string& line : emitted) ++left[line];
    std::map<std::string, std::vector<std::string>> emitted_order, consumed_order;
    std::map<std::string, std::map<int32_t, int>> partitions;
    for (const std::string& line : emitted) {
      const std::optional<testing::JsonValue> a = testing::JsonValue::Parse(line);
      if (a && a->Find("rule")) emitted_order[a->Find("rule")->text].push_back(line);
    }
    for (const Message& m : got) {
      SCOPED_TRACE(m.value);
      auto it = left.find(m.value);
      if (it == left.end()) {
        ADD_FAILURE() << "a message kestrel never emitted";
        continue;
      }
      EXPECT_GT(it->second--, 0) << "delivered twice";
      const std::optional<testing::JsonValue> a = testing::JsonValue::Parse(m.value);
      const testing::JsonValue* rule = a ? a->Find("rule") : nullptr;
      const testing::JsonValue* priority = a ? a->Find("priority") : nullptr;
      if (rule == nullptr || priority == nullptr) {
        ADD_FAILURE() << "no rule or priority";
        continue;
      }
      EXPECT_EQ(m.key, rule->text);
      EXPECT_EQ(m.priority, priority->text);
      ++partitions[m.key][m.partition];
      consumed_order[m.key].push_back(m.value);
    }
    for (const auto& [key, parts] : partitions) EXPECT_EQ(parts.size(), 1u) << key;
    EXPECT_EQ(consumed_order, emitted_order);
    size_t lost = 0;
    for (const auto& [json, n] : left) lost += n > 0 ? static_cast<size_t>(n) : 0;
    return lost;
  }

  // The fixture's alerts, decoded: 3 of each rule, each rule with its
  // priority and output.
  static void ExpectFixtureAlerts(const std::vector<std::string>& alerts) {
    ASSERT_EQ(alerts.size(), 6u);
    int missed = 0, known = 0;
    for (const std::string& line : alerts) {
      SCOPED_TRACE(line);
      const std::optional<testing::JsonValue> a = testing::JsonValue::Parse(line);
      ASSERT_TRUE(a.has_value());
      ASSERT_NE(a->Find("rule"), nullptr);
      ASSERT_NE(a->Find("output"), nullptr);
      ASSERT_NE(a->Find("output_fields"), nullptr);
      const testing::JsonValue* proc = a->Find("output_fields")->Find("proc.name");
      ASSERT_NE(proc, nullptr);
      EXPECT_EQ(proc->text, "kfixture");
      const std::string& rule = a->Find("rule")->text;
      const std::string& output = a->Find("output")->text;
      if (rule == kMissed) {
        ++missed;
        EXPECT_EQ(a->Find("priority")->text, "Error");
        EXPECT_TRUE(absl::StrContains(
            output, absl::StrCat(": Error kfixture could not open /tmp/kestrel-fixture/missing-",
                                 missed, " (ENOENT)")))
            << output;
      } else {
        ASSERT_EQ(rule, kKnown);
        ++known;
        EXPECT_EQ(a->Find("priority")->text, "Informational");
        EXPECT_TRUE(absl::EndsWith(
            output, ": Informational kfixture opened /tmp/kestrel-fixture/known.txt as fd 4"))
            << output;
      }
    }
    EXPECT_EQ(missed, 3);
    EXPECT_EQ(known, 3);
  }

  static void Report(const char* what, size_t emitted, const std::string& stats, size_t consumed,
                     size_t lost) {
    std::printf("kafka e2e, %s: emitted %zu, consumed %zu, lost %zu; stats: %s\n", what, emitted,
                consumed, lost, stats.c_str());
    std::fflush(stdout);
  }

  rd_kafka_t* rk_ = nullptr;  // holds the mock cluster
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
  std::string bootstraps_;
  RunTempDir dir_;
  const std::string rules_ = dir_.File("rules.yaml");
};

TEST_F(RunKafkaTest, ReplayDeliversEachAlertOnceKeyedByItsRule) {
  const CliResult r = RunKestrel(ReplayArgs());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> emitted = Lines(r.out);
  ExpectFixtureAlerts(emitted);
  EXPECT_EQ(KafkaStats(r.err), "kafka sent 6 failed 0 dropped 0 in flight 0 waiting 0") << r.err;
  const std::vector<Message> got = ConsumeAll(emitted.size());
  const size_t lost = ExpectEachOnce(emitted, got);
  EXPECT_EQ(lost, 0u);
  Report("broker up", emitted.size(), KafkaStats(r.err), got.size(), lost);
}

// The replay's alerts all come while the broker is down; the run holds
// them through its drain time (5 s for a replay) and the broker comes back
// after 2 s.
TEST_F(RunKafkaTest, ABrokerDownAtStartAndBackTwoSecondsLaterLosesNothing) {
  SetBrokerDown(true);
  KestrelProcess run(ReplayArgs());
  const auto down_at = std::chrono::steady_clock::now();
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(run.ReadLine(kAlertTimeout)) << i;
  // librdkafka told kestrel the broker is away, and the run still waits.
  EXPECT_TRUE(run.WaitForStderr("kafka output: ", 1, 2s));
  std::this_thread::sleep_until(down_at + 2s);
  EXPECT_FALSE(run.WaitForStderr("kestrel run: events ", 1, 0ms)) << "stopped before the broker";
  SetBrokerDown(false);
  const CliResult r = run.Wait(20s);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> emitted = Lines(r.out);
  ExpectFixtureAlerts(emitted);
  EXPECT_EQ(KafkaStats(r.err), "kafka sent 6 failed 0 dropped 0 in flight 0 waiting 0") << r.err;
  const std::vector<Message> got = ConsumeAll(emitted.size());
  const size_t lost = ExpectEachOnce(emitted, got);
  EXPECT_EQ(lost, 0u);
  Report("broker down at start, up 2 s later", emitted.size(), KafkaStats(r.err), got.size(), lost);
}

// With the broker down for good, each alert fails once message_timeout_ms
// passed: counted by librdkafka's error, told on stderr, none left waiting.
TEST_F(RunKafkaTest, AlertsPastTheMessageTimeoutFailByCause) {
  SetBrokerDown(true);
  const CliResult r = RunKestrel(ReplayArgs({"-o", "kafka_output.message_timeout_ms=500"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 6u) << r.out;
  EXPECT_EQ(KafkaStats(r.err),
            "kafka sent 0 failed 6 (kafka error: _MSG_TIMED_OUT 6) dropped 0 in flight 0 waiting 0")
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "kafka output failed (kafka error): ")) << r.err;
  Report("broker down throughout, 500 ms timeout (all fail, counted)", 6, KafkaStats(r.err), 0, 6);
}

// A live run with a real trigger: while the broker is down /metrics shows
// the alerts in flight and waiting in the producer; once it is back they
// are delivered, the gauges fall to 0, and the exit stats agree.
TEST_F(RunKafkaTest, ALiveRunShowsTheLagInMetricsAndLosesNothing) {
  const uint16_t port = FreeLoopbackPort();
  WriteWhole(rules_, OpenRule(dir_.path()));
  std::vector<std::string> args = {"run",  "-r",
                                   rules_, "--no-pin",
                                   "-o",   "json_output=true",
                                   "-o",   "webserver.enabled=true",
                                   "-o",   absl::StrCat("webserver.listen_port=", port),
                                   "-o",   "webserver.listen_address=127.0.0.1",
                                   "-o",   "webserver.prometheus_metrics_enabled=true"};
  for (const std::string& a : KafkaArgs()) args.push_back(a);
  KestrelProcess run(args);
  ASSERT_TRUE(WaitUntilAlerting(run, dir_)) << "the run never alerted";
  // Scrapes until `ready` holds (10 s at most); the text last scraped.
  const auto scrape_until = [&](const auto& ready) {
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
      text = ScrapeMetrics(port);
      if (ready(text)) break;
      std::this_thread::sleep_for(200ms);
    }
    return text;
  };
  const auto alerts_so_far = [&] {
    return static_cast<double>(CountLinesWith(run.lines(), "\"rule\":\"Open marker\""));
  };
  // The alerts of the run's start, delivered (a late one may not be read
  // from stdout yet: the count at the end has them all).
  std::string text = scrape_until([&](const std::string& t) {
    return KafkaSample(t, "kestrel_output_sent_total") >= alerts_so_far() &&
           KafkaSample(t, "kestrel_output_in_flight") == 0;
  });
  const double before = KafkaSample(text, "kestrel_output_sent_total");
  ASSERT_GE(before, alerts_so_far()) << text;
  EXPECT_EQ(KafkaSample(text, "kestrel_output_waiting"), 0) << text;

  SetBrokerDown(true);
  const auto down_at = std::chrono::steady_clock::now();
  constexpr int kDuring = 5;
  for (int i = 0; i < kDuring; ++i) {
    const std::string marker = dir_.File(absl::StrCat("mark-down-", i));
    OpenFile(marker);
    ASSERT_TRUE(run.WaitForLine(marker, kAlertTimeout)) << marker;
  }
  text = scrape_until(
      [&](const std::string& t) { return KafkaSample(t, "kestrel_output_in_flight") == kDuring; });
  EXPECT_EQ(KafkaSample(text, "kestrel_output_in_flight"), kDuring) << text;
  EXPECT_GE(KafkaSample(text, "kestrel_output_waiting"), kDuring) << text;
  EXPECT_EQ(KafkaSample(text, "kestrel_output_sent_total"), before) << text;
  EXPECT_EQ(KafkaSample(text, "kestrel_output_failed_total"), 0) << text;
  std::printf("kafka e2e, live run with the broker down: in flight %g, waiting %g\n",
              KafkaSample(text, "kestrel_output_in_flight"),
              KafkaSample(text, "kestrel_output_waiting"));
  std::this_thread::sleep_until(down_at + 2s);
  SetBrokerDown(false);

  text = scrape_until([&](const std::string& t) {
    return KafkaSample(t, "kestrel_output_sent_total") == before + kDuring &&
           KafkaSample(t, "kestrel_output_waiting") == 0;
  });
  EXPECT_EQ(KafkaSample(text, "kestrel_output_sent_total"), before + kDuring) << text;
  EXPECT_EQ(KafkaSample(text, "kestrel_output_in_flight"), 0) << text;
  EXPECT_EQ(KafkaSample(text, "kestrel_output_waiting"), 0) << text;

  run.Signal(SIGINT);
  const CliResult r = run.Wait(20s);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> emitted;
  for (const std::string& line : Lines(r.out)) {
    if (absl::StrContains(line, "\"rule\":\"Open marker\"")) emitted.push_back(line);
  }
  const std::string stats = KafkaStats(r.err);
  EXPECT_EQ(stats, absl::StrCat("kafka sent ", emitted.size(),
                                " failed 0 dropped 0 in flight 0 waiting 0"))
      << r.err;
  const std::vector<Message> got = ConsumeAll(emitted.size());
  const size_t lost = ExpectEachOnce(emitted, got);
  EXPECT_EQ(lost, 0u);
  Report("live run, broker down 2 s", emitted.size(), stats, got.size(), lost);
}

}  // namespace
}  // namespace kafka_e2e
}  // namespace kestrel::e2e
