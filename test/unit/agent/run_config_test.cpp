// `kestrel run`'s config: Falco's keys from a YAML file, -o on top.
#include "agent/config/run_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace kestrel::agent {
namespace {

// Each `-o` is refused with a message naming its key.
void ExpectOverridesRefused(RunConfig& c, std::initializer_list<const char*> assignments) {
  for (const char* bad : assignments) {
    const absl::Status s = ApplyRunOverride(bad, c);
    EXPECT_FALSE(s.ok()) << bad;
    const std::string key(std::string_view(bad).substr(0, std::string_view(bad).find('=')));
    EXPECT_TRUE(std::string(s.message()).starts_with("-o " + key + ": ")) << s.message();
  }
}

class RunConfigTest : public ::testing::Test {
 protected:
  void TearDown() override { std::remove(path_.c_str()); }
  const std::string& Write(const std::string& text) {
    std::ofstream(path_) << text;
    return path_;
  }
  const std::string path_ = "/tmp/kestrel-run-config-" + std::to_string(getpid()) + ".yaml";
};

TEST_F(RunConfigTest, FileSetsFalcosKeys) {
  RunConfig c;
  std::vector<std::string> warnings;
  ASSERT_TRUE(LoadRunConfigFile(Write("rules_files:\n"
                                      "  - /etc/a.yaml\n"
                                      "  - /etc/rules.d\n"
                                      "json_output: true\n"
                                      "json_include_output_property: false\n"
                                      "json_include_tags_property: false\n"
                                      "rule_matching: all\n"
                                      "priority: warning\n"
                                      "stdout_output:\n  enabled: false\n"
                                      "file_output:\n  enabled: true\n  filename: /tmp/x.log\n"
                                      "  keep_alive: true\n"
                                      "syslog_output:\n  enabled: true\n"
                                      "http_output:\n  enabled: true\n  url: http://h/\n"
                                      "program_output:\n  enabled: true\n  program: cat\n"
                                      "  keep_alive: true\n"
                                      "base_syscalls:\n  custom_set: [openat, '!close']\n"
                                      "  repair: true\n"
                                      "buffered_outputs: true\n"
                                      "outputs:\n  rate: 2.5\n  max_burst: 10\n"
                                      "outputs_queue:\n  capacity: 16\n"
                                      "output_timeout: 500\n"
                                      "falco_libs:\n  thread_table_size: 4096\n"),
                                c, warnings)
                  .ok());
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(c.rules_files, (std::vector<std::string>{"/etc/a.yaml", "/etc/rules.d"}));
  EXPECT_TRUE(c.json_output);
  EXPECT_FALSE(c.json_include_output_property);
  EXPECT_FALSE(c.json_include_tags_property);
  EXPECT_TRUE(c.rule_matching_all);
  EXPECT_EQ(c.priority, engine::rules::Priority::kWarning);
  EXPECT_FALSE(c.stdout_enabled);
  EXPECT_TRUE(c.file_output.enabled);
  EXPECT_EQ(c.file_output.filename, "/tmp/x.log");
  EXPECT_TRUE(c.file_output.keep_alive);
  EXPECT_TRUE(c.syslog_enabled);
  EXPECT_TRUE(c.http_output.enabled);
  EXPECT_EQ(c.http_output.url, "http://h/");
  EXPECT_TRUE(c.program_output.enabled);
  EXPECT_EQ(c.program_output.program, "cat");
  EXPECT_TRUE(c.program_output.keep_alive);
  EXPECT_EQ(c.base_syscalls.custom_set, (std::vector<std::string>{"openat", "!close"}));
  EXPECT_TRUE(c.base_syscalls.repair);
  EXPECT_TRUE(c.buffered_outputs);
  EXPECT_EQ(c.outputs.rate, 2.5);
  EXPECT_EQ(c.outputs.max_burst, 10);
  EXPECT_EQ(c.outputs_queue_capacity, 16u);
  EXPECT_EQ(c.output_timeout_ms, 500u);
  EXPECT_EQ(c.thread_table_size, 4096u);
}

// Falco's default falco.yaml says capacity 0, "unbounded": no count limit
// (the channels keep a bound on bytes).
TEST(RunOverrideTest, FalcosUnboundedOutputsQueueHasNoCountLimit) {
  RunConfig c;
  ASSERT_TRUE(ApplyRunOverride("outputs_queue.capacity=8", c).ok());
  ASSERT_TRUE(ApplyRunOverride("outputs_queue.capacity=0", c).ok());
  EXPECT_EQ(c.outputs_queue_capacity, 0u);  // Falco's unbounded: no count limit
  EXPECT_EQ(ApplyRunOverride("outputs_queue.capacity=2000000", c).message(),
            "-o outputs_queue.capacity: \"2000000\" is not a whole number from 0 to 1048576");
}

// append_output as Falco reads it: ${VAR} from the environment (nothing
// when unset), $${ for a literal ${, a key with an empty format left out,
// a key given twice refused.
TEST(RunOverrideTest, AppendOutputExpandsTheEnvironmentAsFalco) {
  setenv("KESTREL_TEST_SITE", "eu-1", 1);
  unsetenv("KESTREL_TEST_UNSET");
  RunConfig c;
  ASSERT_TRUE(
      ApplyRunOverride(
          "append_output=[{match: {rule: R, source: syscall, tags: [a, b]}, "
          "extra_output: 'site=${KESTREL_TEST_SITE}', "
          "extra_fields: [proc.pid, {site: 'at ${KESTREL_TEST_SITE}${KESTREL_TEST_UNSET}'}, "
          "{lit: '$${KESTREL_TEST_SITE}'}, {gone: ''}]}, {suggested_output: true}]",
          c)
          .ok());
  ASSERT_EQ(c.append_output.size(), 2u);
  const AppendOutput& e = c.append_output[0];
  EXPECT_EQ(e.rule, "R");
  EXPECT_EQ(e.source, "syscall");
  EXPECT_EQ(e.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(e.extra_output, "site=eu-1");
  EXPECT_EQ(e.extra_fields,
            (std::vector<std::pair<std::string, std::string>>{
                {"proc.pid", ""}, {"site", "at eu-1"}, {"lit", "${KESTREL_TEST_SITE}"}}));
  EXPECT_FALSE(e.suggested_output);
  EXPECT_TRUE(c.append_output[1].suggested_output);
  EXPECT_FALSE(ApplyRunOverride("append_output=[{extra_fields: [a.b, {a.b: x}]}]", c).ok());
}

TEST_F(RunConfigTest, UnknownKeysInTheFileAreWarnedAboutWithTheirPlace) {
  RunConfig c;
  std::vector<std::string> warnings;
  ASSERT_TRUE(LoadRunConfigFile(Write("json_output: true\n"
                                      "colours: []\n"
                                      "file_output:\n  enabled: true\n  colour: red\n"),
                                c, warnings)
                  .ok());
  EXPECT_TRUE(c.json_output);
  EXPECT_TRUE(c.file_output.enabled);
  EXPECT_EQ(warnings,
            (std::vector<std::string>{path_ + ":2:1: unknown key \"colours\" ignored",
                                      path_ + ":5:3: unknown key \"file_output.colour\" ignored"}));
}

TEST_F(RunConfigTest, ABadValueNamesItsLineAndKey) {
  RunConfig c;
  std::vector<std::string> warnings;
  absl::Status s = LoadRunConfigFile(Write("json_output: true\npriority: loud\n"), c, warnings);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            path_ +
                ":2:1: priority: \"loud\" is not a priority (emergency, alert, critical, error, "
                "warning, notice, informational, debug)");
  s = LoadRunConfigFile(Write("stdout_output:\n  enabled: maybe\n"), c, warnings);
  EXPECT_EQ(s.message(),
            path_ + ":2:3: stdout_output.enabled: \"maybe\" is not a boolean (true or false)");
  s = LoadRunConfigFile(Write("json_output: [true\n"), c, warnings);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(std::string(s.message()).starts_with(path_ + ":")) << s.message();
}

TEST_F(RunConfigTest, AMissingFileIsAnError) {
  RunConfig c;
  std::vector<std::string> warnings;
  absl::Status s = LoadRunConfigFile("/nonexistent/kestrel.yaml", c, warnings);
  EXPECT_EQ(s.message(),
            "/nonexistent/kestrel.yaml: cannot open the file: No such file or directory");
}

TEST(RunOverrideTest, OverridesSetKeysWithYamlValues) {
  RunConfig c;
  ASSERT_TRUE(ApplyRunOverride("json_output=true", c).ok());
  ASSERT_TRUE(ApplyRunOverride("priority=ERROR", c).ok());
  ASSERT_TRUE(ApplyRunOverride("rules_files=[a.yaml, b.yaml]", c).ok());
  ASSERT_TRUE(ApplyRunOverride("base_syscalls.custom_set=openat", c).ok());
  ASSERT_TRUE(ApplyRunOverride("file_output.filename=/var/log/k.log", c).ok());
  EXPECT_TRUE(c.json_output);
  EXPECT_EQ(c.priority, engine::rules::Priority::kError);
  EXPECT_EQ(c.rules_files, (std::vector<std::string>{"a.yaml", "b.yaml"}));
  EXPECT_EQ(c.base_syscalls.custom_set, (std::vector<std::string>{"openat"}));
  EXPECT_EQ(c.file_output.filename, "/var/log/k.log");
}

// Falco's `-o key[]=value` appends to a list key.
TEST(RunOverrideTest, BracketsAppendToAList) {
  RunConfig c;
  ASSERT_TRUE(ApplyRunOverride("rules_files=[a.yaml]", c).ok());
  ASSERT_TRUE(ApplyRunOverride("rules_files[]=b.yaml", c).ok());
  ASSERT_TRUE(ApplyRunOverride("rules_files[]=[c.yaml, d.yaml]", c).ok());
  EXPECT_EQ(c.rules_files, (std::vector<std::string>{"a.yaml", "b.yaml", "c.yaml", "d.yaml"}));
  const size_t defaults = c.cri_sockets.size();
  ASSERT_TRUE(ApplyRunOverride("container_engines.cri.sockets[]=/run/x.sock", c).ok());
  ASSERT_EQ(c.cri_sockets.size(), defaults + 1);
  EXPECT_EQ(c.cri_sockets.back(), "/run/x.sock");
  EXPECT_EQ(ApplyRunOverride("json_output[]=true", c).message(),
            "-o json_output[]: json_output is not a list");
  EXPECT_EQ(ApplyRunOverride("rules_files[]={a: b}", c).message(),
            "-o rules_files[]: needs a list of names");
  EXPECT_EQ(ApplyRunOverride("nope[]=x", c).code(), absl::StatusCode::kInvalidArgument);
}

TEST(RunOverrideTest, UnknownKeysAndBadValuesAreErrors) {
  RunConfig c;
  absl::Status s = ApplyRunOverride("json_outptu=true", c);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      std::string(s.message()).starts_with("-o: unknown key \"json_outptu\" (keys: rules_files, "))
      << s.message();
  EXPECT_EQ(ApplyRunOverride("json_output", c).message(), "-o \"json_output\": needs key=value");
  EXPECT_EQ(ApplyRunOverride("rule_matching=some", c).message(),
            "-o rule_matching: \"some\" is not first or all");
  EXPECT_EQ(ApplyRunOverride("outputs.rate=-1", c).message(),
            "-o outputs.rate: \"-1\" is not a finite number >= 0");
  // Issue 35: `max_burst=nan` switched rate limiting off.
  EXPECT_EQ(ApplyRunOverride("outputs.max_burst=nan", c).message(),
            "-o outputs.max_burst: \"nan\" is not a finite number >= 0");
  EXPECT_EQ(ApplyRunOverride("outputs.rate=inf", c).message(),
            "-o outputs.rate: \"inf\" is not a finite number >= 0");
  EXPECT_EQ(ApplyRunOverride("priority=[error]", c).message(),
            "-o priority: needs a single value, not a list");
}

TEST(RunCheckTest, OnlyHttpUrlsArePostedTo) {
  RunConfig c;
  ASSERT_TRUE(ApplyRunOverride("http_output.enabled=true", c).ok());
  ASSERT_TRUE(ApplyRunOverride("http_output.url=file:///etc/passwd", c).ok());
  EXPECT_EQ(CheckRunConfig(c).message(),
            "http output: \"file:///etc/passwd\" is not an http:// or https:// URL");
  ASSERT_TRUE(ApplyRunOverride("http_output.url=HTTPS://sidekick:2801/", c).ok());
  EXPECT_TRUE(CheckRunConfig(c).ok());
}

TEST_F(RunConfigTest, ASectionGivenAValueIsAWrongTypeNotAnUnknownKey) {
  RunConfig c;
  std::vector<std::string> warnings;
  absl::Status s = LoadRunConfigFile(Write("file_output: true\n"), c, warnings);
  EXPECT_EQ(s.message(), path_ +
                             ":1:1: file_output: needs a mapping of keys (file_output...), "
                             "not a single value");
  EXPECT_TRUE(warnings.empty());
}

TEST_F(RunConfigTest, CaptureKeysAreFalcosPlusTheWindow) {
  RunConfig c;
  EXPECT_FALSE(c.capture.enabled);
  EXPECT_EQ(c.capture.path_prefix, "/tmp/kestrel");
  EXPECT_FALSE(c.capture.all_rules);
  EXPECT_EQ(c.capture.default_duration_ms, 5000u);
  EXPECT_EQ(c.capture.window_seconds, 5);
  EXPECT_EQ(c.capture.window_bytes, 64u << 20);
  EXPECT_EQ(c.capture.max_file_size_mb, 0u);
  std::vector<std::string> warnings;
  ASSERT_TRUE(LoadRunConfigFile(Write("capture:\n"
                                      "  enabled: true\n"
                                      "  path_prefix: /var/tmp/k\n"
                                      "  mode: all_rules\n"
                                      "  default_duration: 250\n"
                                      "  window_seconds: 0.5\n"
                                      "  window_bytes: 1048576\n"
                                      "  max_file_size_mb: 3\n"),
                                c, warnings)
                  .ok());
  EXPECT_TRUE(warnings.empty());
  EXPECT_TRUE(c.capture.enabled);
  EXPECT_EQ(c.capture.path_prefix, "/var/tmp/k");
  EXPECT_TRUE(c.capture.all_rules);
  EXPECT_EQ(c.capture.default_duration_ms, 250u);
  EXPECT_EQ(c.capture.window_seconds, 0.5);
  EXPECT_EQ(c.capture.window_bytes, 1u << 20);
  EXPECT_EQ(c.capture.max_file_size_mb, 3u);
  EXPECT_TRUE(ApplyRunOverride("capture.mode=rules", c).ok());
  EXPECT_FALSE(c.capture.all_rules);
}

TEST_F(RunConfigTest, CaptureKeysOutOfBoundsAreErrors) {
  RunConfig c;
  ExpectOverridesRefused(
      c, {"capture.mode=some", "capture.default_duration=0", "capture.default_duration=-5",
          "capture.window_seconds=0", "capture.window_seconds=601", "capture.window_bytes=1048575",
          "capture.window_bytes=4294967297", "capture.max_file_size_mb=x"});
  EXPECT_EQ(c.capture.window_bytes, 64u << 20);  // unchanged by the errors
}

TEST_F(RunConfigTest, LoadSheddingKeys) {
  RunConfig c;
  EXPECT_TRUE(c.load_shedding.enabled);
  EXPECT_EQ(c.load_shedding.start_fill, 0.5);
  EXPECT_EQ(c.load_shedding.stop_fill, 0.1);
  EXPECT_EQ(c.load_shedding.sampling_ratio, 16u);
  EXPECT_EQ(c.load_shedding.keep_priority, engine::rules::Priority::kDebug);
  std::vector<std::string> warnings;
  ASSERT_TRUE(LoadRunConfigFile(Write("load_shedding:\n"
                                      "  enabled: false\n"
                                      "  start_fill: 0.8\n"
                                      "  stop_fill: 0.2\n"
                                      "  min_seconds: 3\n"
                                      "  sampling_ratio: 100\n"
                                      "  keep_priority: warning\n"),
                                c, warnings)
                  .ok());
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(c.load_shedding.enabled);
  EXPECT_EQ(c.load_shedding.start_fill, 0.8);
  EXPECT_EQ(c.load_shedding.stop_fill, 0.2);
  EXPECT_EQ(c.load_shedding.min_seconds, 3);
  EXPECT_EQ(c.load_shedding.sampling_ratio, 100u);
  EXPECT_EQ(c.load_shedding.keep_priority, engine::rules::Priority::kWarning);
  EXPECT_TRUE(CheckRunConfig(c).ok());

  ExpectOverridesRefused(c, {"load_shedding.start_fill=0", "load_shedding.start_fill=1.5",
                             "load_shedding.sampling_ratio=1", "load_shedding.keep_priority=loud"});
  ASSERT_TRUE(ApplyRunOverride("load_shedding.stop_fill=0.9", c).ok());
  EXPECT_EQ(CheckRunConfig(c).message(),
            "load_shedding.stop_fill (0.9) must be below load_shedding.start_fill (0.8)");
}

}  // namespace
}  // namespace kestrel::agent
