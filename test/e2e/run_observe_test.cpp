// `kestrel run`'s observability (Falco's webserver, metrics,
// syscall_event_drops): one live run serves /healthz, /versions and
// /metrics (parsed by prometheus_client's own parser), writes metrics
// snapshots to a file and raises the drop alert simulate_drops asks for;
// a second run on its port refuses to start; a run whose drop action is
// `exit` stops with 1.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

struct ObserveResponse {
  int status = 0;  // 0: no answer
  std::string body;
};

// GET http://127.0.0.1:port/path, HTTP/1.0: the answer ends at close.
ObserveResponse ObserveGet(uint16_t port, const std::string& path) {
  ObserveResponse r;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return r;
  }
  const std::string request = absl::StrCat("GET ", path, " HTTP/1.0\r\nHost: localhost\r\n\r\n");
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return r;
  }
  std::string all;
  char buf[8192];
  ssize_t n = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) all.append(buf, static_cast<size_t>(n));
  close(fd);
  const size_t head_end = all.find("\r\n\r\n");
  if (head_end == std::string::npos || !absl::StartsWith(all, "HTTP/1.")) return r;
  const size_t sp = all.find(' ');
  if (!absl::SimpleAtoi(all.substr(sp + 1, 3), &r.status)) r.status = 0;
  r.body = all.substr(head_end + 4);
  return r;
}

// One sample as prometheus_client parsed it.
struct ObserveSample {
  std::string family_type;  // counter, gauge, ...
  std::map<std::string, std::string> labels;
  double value = 0;
};

// Parses Prometheus text with prometheus_client's parser (Debian's
// python3-prometheus-client): samples by name; empty when it refused it
// (`error` says why).
std::multimap<std::string, ObserveSample> ObserveParse(const std::string& text,
                                                       const std::string& dir, std::string& error) {
  const std::string in = absl::StrCat(dir, "/scrape.txt");
  const std::string script = absl::StrCat(dir, "/parse.py");
  std::ofstream(in) << text;
  std::ofstream(script)
      << "import sys\n"
         "from prometheus_client.parser import text_string_to_metric_families\n"
         "for fam in text_string_to_metric_families(open(sys.argv[1]).read()):\n"
         "    for s in fam.samples:\n"
         "        labels = '\\x1f'.join(k + '\\x1e' + v for k, v in sorted(s.labels.items()))\n"
         "        print(fam.type + '\\t' + s.name + '\\t' + repr(float(s.value)) + '\\t' + "
         "labels)\n";
  const std::string command = absl::StrCat("/usr/bin/python3 ", script, " ", in, " 2>&1");
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  std::multimap<std::string, ObserveSample> samples;
  if (status != 0) {
    error = out;
    return samples;
  }
  for (const std::string& line : Lines(out)) {
    std::vector<std::string> cols = absl::StrSplit(line, '\t');
    if (cols.size() != 4) continue;
    ObserveSample s;
    s.family_type = cols[0];
    if (!absl::SimpleAtod(cols[2], &s.value)) s.value = -1;
    for (absl::string_view kv : absl::StrSplit(cols[3], '\x1f', absl::SkipEmpty())) {
      std::vector<std::string> pair = absl::StrSplit(kv, absl::MaxSplits('\x1e', 1));
      s.labels[pair[0]] = pair.size() > 1 ? pair[1] : "";
    }
    samples.emplace(cols[1], std::move(s));
  }
  return samples;
}

const ObserveSample* ObserveFind(const std::multimap<std::string, ObserveSample>& samples,
                                 const std::string& name,
                                 const std::map<std::string, std::string>& labels = {}) {
  auto [begin, end] = samples.equal_range(name);
  for (auto it = begin; it != end; ++it) {
    bool all = true;
    for (const auto& [k, v] : labels) {
      auto l = it->second.labels.find(k);
      all = all && l != it->second.labels.end() && l->second == v;
    }
    if (all) return &it->second;
  }
  return nullptr;
}

class RunObserveTest : public ::testing::Test {
 protected:
  // One run for every case: the probe loads once.
  static void SetUpTestSuite() {
    ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
    dir_ = new RunTempDir();
    port_ = FreeLoopbackPort();
    metrics_file_ = dir_->File("metrics.jsonl");
    const std::string rules = dir_->File("rules.yaml");
    WriteWhole(rules, OpenRule(dir_->path()));
    run_ = new KestrelProcess({"run", "-r",
                               rules, "--no-pin",
                               "-o",  "json_output=true",
                               "-o",  "webserver.enabled=true",
                               "-o",  absl::StrCat("webserver.listen_port=", port_),
                               "-o",  "webserver.listen_address=127.0.0.1",
                               "-o",  "webserver.prometheus_metrics_enabled=true",
                               "-o",  "metrics.enabled=true",
                               "-o",  "metrics.interval=1s",
                               "-o",  "metrics.output_rule=true",
                               "-o",  absl::StrCat("metrics.output_file=", metrics_file_),
                               "-o",  "syscall_event_drops.simulate_drops=true",
                               "-o",  "syscall_event_drops.actions=[log, alert]"});
    alerting_ = WaitUntilAlerting(*run_, *dir_);
  }
  static void TearDownTestSuite() {
    delete run_;
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(alerting_) << "the run never alerted"; }

  // Scrapes /metrics until `ready` holds of the samples (10 s at most).
  template <typename Ready>
  std::multimap<std::string, ObserveSample> ScrapeUntil(Ready ready, std::string& text) {
    std::multimap<std::string, ObserveSample> samples;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      const ObserveResponse r = ObserveGet(port_, "/metrics");
      EXPECT_EQ(r.status, 200);
      text = r.body;
      std::string error;
      samples = ObserveParse(text, dir_->path(), error);
      EXPECT_TRUE(error.empty()) << error << text;
      if (!error.empty() || ready(samples)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return samples;
  }

  // A stdout line with `needle`, read already or within kAlertTimeout.
  static std::optional<std::string> SeenOrWait(const std::string& needle) {
    for (const std::string& line : run_->lines()) {
      if (absl::StrContains(line, needle)) return line;
    }
    return run_->WaitForLine(needle, kAlertTimeout);
  }

  static RunTempDir* dir_;
  static KestrelProcess* run_;
  static uint16_t port_;
  static std::string metrics_file_;
  static bool alerting_;
};

RunTempDir* RunObserveTest::dir_ = nullptr;
KestrelProcess* RunObserveTest::run_ = nullptr;
uint16_t RunObserveTest::port_ = 0;
std::string RunObserveTest::metrics_file_;
bool RunObserveTest::alerting_ = false;

TEST_F(RunObserveTest, HealthzSaysOkWhileTheReaderRuns) {
  const ObserveResponse r = ObserveGet(port_, "/healthz");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "{\"status\": \"ok\"}");
  EXPECT_EQ(ObserveGet(port_, "/no-such-page").status, 404);
}

// cpp-httplib and the OpenSSL init it runs when loaded stay out of a
// process that serves no HTTP: the webserver is a module loaded on start.
// Likewise libcurl and librdkafka out of one with no HTTP or Kafka output.
TEST_F(RunObserveTest, OnlyAServingRunLoadsTheWebserverModule) {
  const std::string serving = MappedFiles(run_->pid());
  EXPECT_TRUE(absl::StrContains(serving, "/kestrel_webserver.so")) << serving;
  EXPECT_TRUE(absl::StrContains(serving, "libcpp-httplib")) << serving;
  for (const char* absent : {"kestrel_network_outputs", "libcurl", "librdkafka"}) {
    EXPECT_FALSE(absl::StrContains(serving, absent)) << absent;
  }

  KestrelProcess capture({"capture", "--syscalls", "getppid", "--duration", "20"});
  ASSERT_TRUE(capture.WaitForStderr("attached in", 1, std::chrono::seconds(30)));
  const std::string quiet = MappedFiles(capture.pid());
  for (const char* absent : {"kestrel_webserver", "libcpp-httplib", "kestrel_network_outputs",
                             "libcurl", "librdkafka"}) {
    EXPECT_FALSE(absl::StrContains(quiet, absent)) << absent;
  }
  capture.Signal(SIGTERM);
  EXPECT_EQ(capture.Wait().exit_code, 0);
}

TEST_F(RunObserveTest, VersionsNameKestrelTheEngineAndTheKernel) {
  const ObserveResponse r = ObserveGet(port_, "/versions");
  ASSERT_EQ(r.status, 200);
  EXPECT_TRUE(absl::StrContains(r.body, "\"engine_version\":\"0.57.0\"")) << r.body;
  EXPECT_TRUE(absl::StrContains(r.body, "\"kestrel_version\":\"")) << r.body;
  EXPECT_TRUE(absl::StrContains(r.body, "\"libbpf_version\":\"1.")) << r.body;
  utsname u{};
  ASSERT_EQ(uname(&u), 0);
  EXPECT_TRUE(absl::StrContains(r.body, absl::StrCat("\"kernel\":\"", u.release, "\""))) << r.body;
}

TEST_F(RunObserveTest, MetricsParseAndCountTheRulesAlerts) {
  const std::string marker = dir_->File("mark-metrics");
  OpenFile(marker);
  ASSERT_TRUE(run_->WaitForLine(marker, kAlertTimeout));
  std::string text;
  // Every marker opened so far alerted once: the ready ones and this one.
  const size_t alerts = CountLinesWith(run_->lines(), "\"rule\":\"Open marker\"");
  const auto samples = ScrapeUntil(
      [&](const auto& s) {
        const ObserveSample* m = ObserveFind(s, "falcosecurity_falco_rules_matches_total",
                                             {{"rule_name", "Open marker"}});
        return m != nullptr && m->value >= static_cast<double>(alerts);
      },
      text);
  const ObserveSample* matches = ObserveFind(samples, "falcosecurity_falco_rules_matches_total",
                                             {{"rule_name", "Open marker"}});
  ASSERT_NE(matches, nullptr) << text;
  EXPECT_EQ(matches->family_type, "counter");
  EXPECT_EQ(matches->value, static_cast<double>(alerts)) << text;
  EXPECT_EQ(matches->labels.at("priority"), "4");  // Warning, numbered as Falco does
  EXPECT_EQ(matches->labels.at("source"), "syscall");
  const ObserveSample* warnings =
      ObserveFind(samples, "kestrel_alerts_total", {{"priority", "Warning"}});
  ASSERT_NE(warnings, nullptr) << text;
  EXPECT_GE(warnings->value, static_cast<double>(alerts));

  const ObserveSample* evts = ObserveFind(samples, "falcosecurity_scap_n_evts_total");
  ASSERT_NE(evts, nullptr) << text;
  EXPECT_EQ(evts->family_type, "counter");
  EXPECT_GT(evts->value, 0);
  ASSERT_NE(ObserveFind(samples, "kestrel_probe_drops_total", {{"cause", "ring_full"}}), nullptr)
      << text;
  const ObserveSample* rss = ObserveFind(samples, "falcosecurity_falco_memory_rss_bytes");
  ASSERT_NE(rss, nullptr) << text;
  EXPECT_EQ(rss->family_type, "gauge");
  EXPECT_GT(rss->value, 1024 * 1024);
  const ObserveSample* loaded = ObserveFind(samples, "kestrel_rules_loaded");
  ASSERT_NE(loaded, nullptr) << text;
  EXPECT_EQ(loaded->value, 1);
  const ObserveSample* rings = ObserveFind(samples, "kestrel_rings");
  ASSERT_NE(rings, nullptr) << text;
  EXPECT_GE(rings->value, 1);
  const ObserveSample* sent =
      ObserveFind(samples, "kestrel_output_sent_total", {{"channel", "stdout"}});
  ASSERT_NE(sent, nullptr) << text;
  EXPECT_GE(sent->value, 1);
  const ObserveSample* version = ObserveFind(samples, "kestrel_version_info");
  ASSERT_NE(version, nullptr) << text;
  EXPECT_EQ(version->labels.at("engine_version"), "0.57.0");
  // Each name's # TYPE once, before its samples.
  EXPECT_TRUE(absl::StrContains(text, "# TYPE falcosecurity_scap_n_evts_total counter\n")) << text;
}

TEST_F(RunObserveTest, MetricsSnapshotsGoToTheFileAndTheAlerts) {
  std::vector<std::string> lines;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(metrics_file_);
    std::stringstream all;
    all << in.rdbuf();
    lines = Lines(all.str());
    if (lines.size() >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_GE(lines.size(), 2u);
  for (const std::string& line : lines) {
    EXPECT_TRUE(absl::StrContains(line, "\"rule\":\"Falco internal: metrics snapshot\"")) << line;
    EXPECT_TRUE(absl::StrContains(line, "\"priority\":\"Informational\"")) << line;
    EXPECT_TRUE(absl::StrContains(line, "\"kestrel.engine_version\":\"0.57.0\"")) << line;
    EXPECT_TRUE(absl::StrContains(line, "\"scap.n_evts\":")) << line;
    // convert_memory_to_mb is Falco's default.
    EXPECT_TRUE(absl::StrContains(line, "\"falco.memory_rss_mb\":")) << line;
  }
  EXPECT_TRUE(SeenOrWait("Falco internal: metrics snapshot"));
}

TEST_F(RunObserveTest, SimulatedDropsRaiseTheDropAlertAsTheBucketAllows) {
  const std::optional<std::string> alert = SeenOrWait("Falco internal: syscall event drop");
  ASSERT_TRUE(alert);
  EXPECT_TRUE(absl::StrContains(*alert, "\"priority\":\"Debug\"")) << *alert;
  EXPECT_TRUE(absl::StrContains(*alert, "\"n_drops\":")) << *alert;
  EXPECT_TRUE(absl::StrContains(*alert, "\"n_evts\":")) << *alert;
  // rate 0.03333 with max_burst 1: one action in the first 30 s, whatever
  // the checks found in between.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  OpenFile(dir_->File("mark-after-drops"));
  ASSERT_TRUE(run_->WaitForLine(dir_->File("mark-after-drops"), kAlertTimeout));
  EXPECT_EQ(CountLinesWith(run_->lines(), "Falco internal: syscall event drop"), 1u);
  EXPECT_TRUE(run_->WaitForStderr("system calls dropped in last second", 1, kAlertTimeout));
  const std::string text = ObserveGet(port_, "/metrics").body;
  std::string error;
  const auto samples = ObserveParse(text, dir_->path(), error);
  const ObserveSample* acted = ObserveFind(samples, "kestrel_syscall_event_drop_actions_total");
  ASSERT_NE(acted, nullptr) << error << text;
  EXPECT_EQ(acted->value, 1);
  const ObserveSample* detected = ObserveFind(samples, "kestrel_syscall_event_drops_total");
  ASSERT_NE(detected, nullptr) << text;
  EXPECT_GE(detected->value, 3);
}

TEST_F(RunObserveTest, APortInUseIsAConfigErrorBeforeTheProbe) {
  const std::string rules = dir_->File("rules.yaml");
  const CliResult r = RunKestrel({"run", "-r", rules, "--no-pin", "-o", "webserver.enabled=true",
                                  "-o", absl::StrCat("webserver.listen_port=", port_), "-o",
                                  "webserver.listen_address=127.0.0.1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(
      absl::StrContains(r.err, absl::StrCat("webserver: cannot listen on 127.0.0.1:", port_)))
      << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "attached")) << r.err;
  // The first run still serves.
  EXPECT_EQ(ObserveGet(port_, "/healthz").status, 200);
}

TEST_F(RunObserveTest, TheExitActionStopsTheRunWithOne) {
  const CliResult r = RunKestrel(
      {"run", "-r", dir_->File("rules.yaml"), "--no-pin", "-o",
       "syscall_event_drops.simulate_drops=true", "-o", "syscall_event_drops.actions=[exit]"},
      std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "Falco internal: syscall event drop")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "Exiting")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
