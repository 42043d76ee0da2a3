// Falco's falco.yaml as an operator brings it: every key Falco documents,
// at Falco's defaults (written here from Falco's key list, not Falco's
// file), starts Kestrel with no key unknown, and each key Kestrel honours
// changes what it should, judged on the committed capture fixture (no
// probe) or by a dry run; a key set to what Kestrel cannot do stops the
// start with one line naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/json_value.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

constexpr char kConfigFixture[] = KESTREL_SOURCE_DIR "/test/fixtures/capture/schema-v2.kcap";

// Every top-level and nested key of Falco 0.44's falco.yaml at its
// default; @DIR@ is the test's directory (Falco's /etc/falco).
constexpr char kFalcoDefaults[] = R"yaml(config_files:
  - @DIR@/config.d
watch_config_files: true
rules_files:
  - @DIR@/falco_rules.yaml
  - @DIR@/falco_rules.local.yaml
  - @DIR@/rules.d
engine:
  kind: modern_ebpf
  kmod:
    buf_size_preset: 4
    drop_failed_exit: false
  ebpf:
    probe: ${HOME}/.falco/falco-bpf.o
    buf_size_preset: 4
    drop_failed_exit: false
  modern_ebpf:
    cpus_for_each_buffer: 2
    buf_size_preset: 4
    drop_failed_exit: false
    disable_iterators: false
  replay:
    capture_file: ""
  gvisor:
    config: ""
    root: ""
capture:
  enabled: false
  path_prefix: /tmp/falco
  mode: rules
  default_duration: 5000
load_plugins: []
plugins:
  - name: container
    library_path: libcontainer.so
    init_config:
      label_max_len: 100
      with_size: false
plugins_hostinfo: true
time_format_iso_8601: false
buffer_format_base64: false
priority: debug
json_output: false
json_include_output_property: true
json_include_message_property: false
json_include_output_fields_property: true
json_include_tags_property: true
buffered_outputs: false
rule_matching: first
outputs_queue:
  capacity: 0
append_output:
  - suggested_output: true
stdout_output:
  enabled: true
syslog_output:
  enabled: true
file_output:
  enabled: false
  keep_alive: false
  filename: ./events.txt
http_output:
  enabled: false
  url: ""
  user_agent: "falcosecurity/falco"
  insecure: false
  ca_cert: ""
  ca_bundle: ""
  ca_path: "/etc/ssl/certs"
  mtls: false
  client_cert: "/etc/ssl/certs/client.crt"
  client_key: "/etc/ssl/certs/client.key"
  echo: false
  compress_uploads: false
  keep_alive: false
  max_consecutive_timeouts: 5
program_output:
  enabled: false
  keep_alive: false
  program: "jq '{text: .output}' | curl -d @- -X POST https://hooks.slack.com/services/XXX"
webserver:
  enabled: true
  threadiness: 0
  listen_port: 8765
  listen_address: 0.0.0.0
  k8s_healthz_endpoint: /healthz
  prometheus_metrics_enabled: false
  ssl_enabled: false
  ssl_certificate: /etc/falco/falco.pem
log_stderr: true
log_syslog: true
log_level: info
libs_logger:
  enabled: true
  severity: info
output_timeout: 2000
syscall_event_timeouts:
  max_consecutives: 1000
syscall_event_drops:
  threshold: .1
  actions:
    - log
    - alert
  rate: .03333
  max_burst: 1
  simulate_drops: false
metrics:
  enabled: false
  interval: 1h
  output_rule: true
  output_file: ""
  rules_counters_enabled: true
  resource_utilization_enabled: true
  state_counters_enabled: true
  kernel_event_counters_enabled: true
  kernel_event_counters_per_cpu_enabled: false
  libbpf_stats_enabled: true
  plugins_metrics_enabled: true
  kernel_iter_event_counters_enabled: true
  jemalloc_stats_enabled: false
  convert_memory_to_mb: true
  include_empty_values: false
base_syscalls:
  custom_set: []
  repair: false
  all: false
falco_libs:
  thread_table_size: 262144
  thread_table_auto_purging_interval_s: 300
  thread_table_auto_purging_thread_timeout_s: 300
  snaplen: 80
)yaml";

// A rule on the fixture's known file, as run_replay_test.cpp knows it.
constexpr char kFixtureRule[] = R"yaml(- rule: Known file opened
  desc: the fixture opened known.txt
  condition: evt.type = openat and fd.name = /tmp/kestrel-fixture/known.txt
  output: "opened %fd.name"
  priority: NOTICE
)yaml";

// What Falco's append_output (suggested_output: true) adds to a syscall
// rule's output on the host: the container source's suggested fields.
constexpr char kSuggested[] =
    " container_id=host container_name=host container_image_repository=<NA> "
    "container_image_tag=<NA> k8s_pod_name=<NA> k8s_ns_name=<NA>";

class FalcoConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Falco's layout: the stable rules file present, the local one and
    // rules.d missing, config.d empty.
    std::filesystem::create_directory(dir_.File("config.d"));
    WriteWhole(dir_.File("falco_rules.yaml"), kFixtureRule);
    WriteWhole(config_, absl::StrReplaceAll(kFalcoDefaults, {{"@DIR@", dir_.path()}}));
  }
  CliResult Replay(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"run", "-c", config_, "--replay", kConfigFixture};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunKestrel(args);
  }
  RunTempDir dir_;
  const std::string config_ = dir_.File("falco.yaml");
};

TEST_F(FalcoConfigTest, FalcosKeysStartKestrelWithNoneUnknown) {
  const CliResult r = RunKestrel({"run", "-c", config_, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "unknown key")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat("rules_files: ", dir_.path(),
                                                    "/falco_rules.local.yaml does not exist: "
                                                    "skipped")))
      << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err, absl::StrCat("rules_files: ", dir_.path(), "/rules.d does not exist: skipped")));
}

TEST_F(FalcoConfigTest, FalcosDefaultsGiveFalcosTextLine) {
  const CliResult r = Replay();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> alerts = Lines(r.out);
  ASSERT_EQ(alerts.size(), 3u) << r.out;
  EXPECT_EQ(alerts[0].substr(18),
            absl::StrCat(": Notice opened /tmp/kestrel-fixture/known.txt", kSuggested))
      << alerts[0];
}

TEST_F(FalcoConfigTest, ConfigFilesOverrideTheMainFile) {
  WriteWhole(dir_.File("config.d/json.yaml"),
             "json_output: true\njson_include_message_property: true\n"
             "json_include_output_fields_property: false\n");
  const CliResult r = Replay();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> alerts = Lines(r.out);
  ASSERT_EQ(alerts.size(), 3u) << r.out;
  const std::optional<testing::JsonValue> alert = testing::JsonValue::Parse(alerts[0]);
  ASSERT_TRUE(alert.has_value()) << alerts[0];
  ASSERT_NE(alert->Find("message"), nullptr) << alerts[0];
  EXPECT_EQ(alert->Find("message")->text,
            absl::StrCat("opened /tmp/kestrel-fixture/known.txt", kSuggested));
  EXPECT_EQ(alert->Find("output_fields"), nullptr) << alerts[0];
}

TEST_F(FalcoConfigTest, IsoTimesInTheTextLine) {
  const CliResult r = Replay({"-o", "time_format_iso_8601=true", "-o", "append_output=[]"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> alerts = Lines(r.out);
  ASSERT_EQ(alerts.size(), 3u) << r.out;
  EXPECT_EQ(alerts[0],
            "2026-12-02T03:01:20.230057187Z: Notice opened "
            "/tmp/kestrel-fixture/known.txt");
}

TEST_F(FalcoConfigTest, TheReplayEngineReplaysItsCaptureFile) {
  const CliResult r = RunKestrel({"run", "-c", config_, "-o", "engine.kind=replay", "-o",
                                  absl::StrCat("engine.replay.capture_file=", kConfigFixture)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).size(), 3u) << r.out << r.err;
  const CliResult none = RunKestrel({"run", "-c", config_, "-o", "engine.kind=replay"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(none.err, "engine.replay.capture_file names no file")) << none.err;
}

TEST_F(FalcoConfigTest, WhatKestrelCannotDoStopsTheStartWithOneLine) {
  const struct {
    const char* assignment;
    const char* line;
  } cases[] = {
      {"engine.kind=kmod",
       "-o engine.kind: \"kmod\" is not supported: Kestrel's engines are its "
       "CO-RE BPF probe (modern_ebpf) and replay"},
      {"load_plugins=[container,k8saudit]",
       "-o load_plugins: \"k8saudit\" is not supported: Kestrel loads no plugins; its container "
       "fields are built in"},
      {"buffer_format_base64=true",
       "-o buffer_format_base64: \"true\" is not supported: buffers print as escaped text only"},
      {"engine.modern_ebpf.buf_size_preset=11",
       "-o engine.modern_ebpf.buf_size_preset: \"11\" is not a whole number from 1 to 10"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.assignment);
    const CliResult r = RunKestrel({"run", "-c", config_, "-o", c.assignment, "--dry-run"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(absl::StrContains(r.err, c.line)) << r.err;
  }
}

TEST_F(FalcoConfigTest, LogLevelAndStderrDecideWhatIsSaid) {
  const CliResult quiet = RunKestrel({"run", "-c", config_, "-o", "log_level=error", "--dry-run"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_FALSE(absl::StrContains(quiet.err, "does not exist: skipped")) << quiet.err;
  const CliResult silent =
      RunKestrel({"run", "-c", config_, "-o", "log_stderr=false", "--dry-run"});
  EXPECT_FALSE(absl::StrContains(silent.err, "does not exist: skipped")) << silent.err;
}

TEST_F(FalcoConfigTest, BaseSyscallsAllCapturesEverySyscall) {
  const CliResult some = RunKestrel({"run", "-c", config_, "--dry-run"});
  const CliResult all =
      RunKestrel({"run", "-c", config_, "-o", "base_syscalls.all=true", "--dry-run"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_GT(Lines(all.out).size(), 300u);
  EXPECT_LT(Lines(some.out).size(), 100u);
  EXPECT_TRUE(absl::StrContains(all.out, "base_syscalls.all")) << all.out.substr(0, 400);
}

TEST_F(FalcoConfigTest, SnaplenIsTheBytesOfBuffersRulesRead) {
  WriteWhole(dir_.File("falco_rules.yaml"), R"yaml(- rule: Reads data
  desc: reads a buffer
  condition: evt.type = write and evt.buffer contains secret
  output: "%evt.buffer"
  priority: NOTICE
)yaml");
  const CliResult r =
      RunKestrel({"run", "-c", config_, "-o", "falco_libs.snaplen=256", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "snaplen 256, io data on")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
