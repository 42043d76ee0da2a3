#include "agent/outputs/alert_outputs.h"

#include <string.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "agent/outputs/channel_worker.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"

namespace kestrel::agent::outputs {
namespace {

uint64_t SteadyNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Whether `path` could be opened for appending, created if missing.
absl::Status CheckAppendable(const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("file output: no filename");
  if (access(path.c_str(), F_OK) == 0) {
    if (access(path.c_str(), W_OK) == 0) return absl::OkStatus();
  } else {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
    if (access(dir.c_str(), W_OK | X_OK) == 0) return absl::OkStatus();
  }
  const int err = errno;
  return absl::InvalidArgumentError(
      absl::StrCat("file output: cannot open ", path, ": ", strerror(err)));
}

}  // namespace

absl::Status AlertOutputs::Check(const OutputsConfig& config) {
  if (config.file.enabled) {
    if (absl::Status s = CheckAppendable(config.file.filename); !s.ok()) return s;
  }
  if (config.program.enabled && config.program.program.empty()) {
    return absl::InvalidArgumentError("program output: no program");
  }
  if (config.program.enabled && access("/bin/sh", X_OK) != 0) {
    return absl::InvalidArgumentError("program output: /bin/sh cannot be run");
  }
  if (config.http.enabled) {
    if (absl::Status s = CheckHttpUrl(config.http.url); !s.ok()) return s;
  }
  if (config.kafka.enabled) return CheckKafkaOptions(config.kafka);
  return absl::OkStatus();
}

AlertOutputs::AlertOutputs(const OutputsConfig& config)
    : config_(config), limiter_(config.rate_limit) {
  config_.json.time_format_iso_8601 = config.time_format_iso_8601;
}

AlertOutputs::~AlertOutputs() { Close(std::chrono::milliseconds(0)); }

absl::StatusOr<std::unique_ptr<AlertOutputs>> AlertOutputs::Start(const OutputsConfig& config) {
  std::unique_ptr<AlertOutputs> outputs(new AlertOutputs(config));
  std::vector<std::unique_ptr<AlertChannel>> channels;
  if (config.stdout_enabled) channels.push_back(MakeStdoutChannel());
  if (config.file.enabled) {
    absl::StatusOr<std::unique_ptr<AlertChannel>> c =
        MakeFileChannel(config.file.filename, config.file.keep_alive);
    if (!c.ok()) return c.status();
    channels.push_back(std::move(*c));
  }
  if (config.syslog_enabled) channels.push_back(MakeSyslogChannel(config.syslog_socket));
  if (config.program.enabled) {
    absl::StatusOr<std::unique_ptr<AlertChannel>> c =
        MakeProgramChannel(config.program.program, config.program.keep_alive);
    if (!c.ok()) return c.status();
    channels.push_back(std::move(*c));
  }
  if (config.http.enabled) {
    absl::StatusOr<std::unique_ptr<AlertChannel>> c = MakeHttpChannel(config.http);
    if (!c.ok()) return c.status();
    channels.push_back(std::move(*c));
  }
  if (config.kafka.enabled) {
    absl::StatusOr<std::unique_ptr<AlertChannel>> c = MakeKafkaChannel(config.kafka);
    if (!c.ok()) return c.status();
    channels.push_back(std::move(*c));
  }
  for (std::unique_ptr<AlertChannel>& c : channels) {
    outputs->workers_.push_back(std::make_unique<ChannelWorker>(std::move(c), config.queue_capacity,
                                                                config.buffered, config.on_failure,
                                                                config.queue_max_bytes));
  }
  return outputs;
}

void AlertOutputs::Emit(const Alert& alert) {
  bool closed = false;
  {
    std::lock_guard lock(mu_);
    closed = closed_;
    if (!closed && !limiter_.Allow(alert.rule, SteadyNs())) {
      ++rate_limited_;
      return;
    }
  }
  if (closed) {
    // Raised while the run stops: counted, so every alert is sent, failed
    // or dropped on each channel.
    for (std::unique_ptr<ChannelWorker>& w : workers_) w->DropClosed();
    return;
  }
  if (config_.on_alert) config_.on_alert(alert);
  if (workers_.empty()) return;
  auto formatted = std::make_shared<FormattedAlert>();
  formatted->priority = alert.priority;
  if (config_.kafka.enabled) formatted->rule = alert.rule;
  if (config_.json_output || (config_.http.enabled && config_.http.json) || config_.kafka.enabled) {
    formatted->json = engine::alerts::AlertToJson(alert, config_.json);
  }
  formatted->line = config_.json_output
                        ? formatted->json
                        : engine::alerts::AlertToText(alert, config_.time_format_iso_8601);
  std::shared_ptr<const FormattedAlert> shared = std::move(formatted);
  for (std::unique_ptr<ChannelWorker>& w : workers_) w->Push(shared);
}

void AlertOutputs::Reopen() {
  for (std::unique_ptr<ChannelWorker>& w : workers_) w->Reopen();
}

void AlertOutputs::Close(std::chrono::milliseconds drain_timeout) {
  {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
  }
  // One deadline for all: the channels drain at the same time.
  const auto deadline = std::chrono::steady_clock::now() + drain_timeout;
  for (std::unique_ptr<ChannelWorker>& w : workers_) w->Stop(deadline);
}

std::vector<AlertOutputs::ChannelStats> AlertOutputs::Stats() const {
  std::vector<ChannelStats> stats;
  for (const std::unique_ptr<ChannelWorker>& w : workers_) {
    ChannelStats& c = stats.emplace_back();
    c.name = w->name();
    c.sent = w->sent();
    c.failed = w->failed();
    c.dropped = w->dropped();
    c.delivers_later = w->delivers_later();
    c.in_flight = w->in_flight();
    c.waiting = w->waiting();
    for (const auto& [key, count] : w->failures()) {
      c.failed_by_cause.push_back(CauseCount{FailureKeyName(key), count});
    }
    for (DropCause cause : {DropCause::kQueueFull, DropCause::kClosed}) {
      if (const uint64_t n = w->dropped(cause); n > 0) {
        c.dropped_by_cause.push_back(CauseCount{std::string(DropCauseName(cause)), n});
      }
    }
  }
  return stats;
}

uint64_t AlertOutputs::rate_limited() const {
  std::lock_guard lock(mu_);
  return rate_limited_;
}

}  // namespace kestrel::agent::outputs
