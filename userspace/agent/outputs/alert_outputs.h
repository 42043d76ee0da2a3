// Where alerts go: stdout, a file, syslog, a program's stdin, an HTTP
// endpoint, as Falco's *_output settings name them, and a Kafka topic. Each channel has its
// own bounded queue and thread, so a slow or stuck channel never stalls the
// caller (the capture loop): when its queue is full its oldest alert is
// dropped for that channel and counted.
#ifndef KESTREL_AGENT_OUTPUTS_ALERT_OUTPUTS_H_
#define KESTREL_AGENT_OUTPUTS_ALERT_OUTPUTS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/rate_limiter.h"
#include "engine/alerts/alert.h"

namespace kestrel::agent::outputs {

// What the engine makes of an alert; this layer only delivers it.
using engine::alerts::Alert;
using engine::alerts::JsonOptions;

class ChannelWorker;

struct OutputsConfig {
  bool json_output = false;  // json_output: every channel gets JSON lines
  JsonOptions json;
  bool time_format_iso_8601 = false;  // the text line's time (and JSON's `output`)
  // buffered_outputs: false flushes after every alert; true when a
  // channel's queue runs empty.
  bool buffered = false;
  bool stdout_enabled = true;  // stdout_output.enabled
  struct {
    bool enabled = false;
    std::string filename;
    bool keep_alive = true;     // false: opened and closed for every alert
  } file;                       // file_output
  bool syslog_enabled = false;  // syslog_output.enabled
  std::string syslog_socket = "/dev/log";
  struct {
    bool enabled = false;
    std::string program;      // run as `sh -c PROGRAM`, one alert per line on its stdin
    bool keep_alive = false;  // false: a new process for every alert, as Falco does
  } program;                  // program_output
  HttpOptions http;           // http_output
  KafkaOptions kafka;         // kafka_output
  // Per channel (outputs_queue.capacity): alerts queued; 0 is no count
  // limit. Either way at most queue_max_bytes of them (ChannelWorker).
  size_t queue_capacity = 1024;
  size_t queue_max_bytes = 64u << 20;  // ChannelWorker::kDefaultMaxQueuedBytes
  RateLimit rate_limit;                // per rule (outputs.rate, outputs.max_burst)
  // Told, from a channel's thread, one line on why a delivery failed: a
  // channel's first failure, then at most one every 10 s with the count of
  // those in between, so a dead endpoint is seen at once and never floods.
  std::function<void(const std::string&)> on_failure;
  // Told every alert the rate limiter lets through, on the thread that
  // emits it, before any channel: an embedding program's own channel.
  std::function<void(const Alert&)> on_alert;
};

class AlertOutputs {
 public:
  // Opens every enabled channel (the file, syslog, the first program, a
  // curl handle) and starts its thread; an error names the channel.
  static absl::StatusOr<std::unique_ptr<AlertOutputs>> Start(const OutputsConfig& config);
  // What Start would refuse, found with nothing opened, created or run:
  // for a dry run.
  static absl::Status Check(const OutputsConfig& config);
  ~AlertOutputs();  // Close with no wait, if not closed yet

  AlertOutputs(const AlertOutputs&) = delete;
  AlertOutputs& operator=(const AlertOutputs&) = delete;

  // Formats `alert` once and queues it on every channel. Never blocks on a
  // channel. Thread-safe. After Close, counted as dropped on every channel.
  void Emit(const Alert& alert);

  // Asks the file channel to reopen its file before its next write
  // (logrotate's SIGUSR1). Not async-signal-safe: call it from the thread
  // that handles signals, not from a handler.
  void Reopen();

  // Lets each channel send what it has queued for up to `drain_timeout`,
  // then stops it (a channel still stuck is cut off: its program killed,
  // its request aborted; what it had queued counts as dropped).
  void Close(std::chrono::milliseconds drain_timeout);

  struct CauseCount {
    std::string cause;  // "write error: No space left on device", "queue full" ...
    uint64_t count = 0;
  };
  struct ChannelStats {
    std::string name;  // "stdout", "file", "syslog", "program", "http", "kafka"
    uint64_t sent = 0;
    uint64_t failed = 0;   // the channel tried and could not deliver
    uint64_t dropped = 0;  // never tried: its queue was full, or it closed
    // A channel that delivers later (Kafka): alerts it took and has no
    // report on yet, neither sent nor failed.
    bool delivers_later = false;
    uint64_t in_flight = 0;
    // The channel's client's own count of what waits for delivery (Kafka's
    // rd_kafka_outq_len): the lag while a broker is slow or down.
    uint64_t waiting = 0;
    // failed and dropped by cause (delivery_failure.h), only those that
    // happened: failures in the order first seen, drops in a fixed order.
    std::vector<CauseCount> failed_by_cause;
    std::vector<CauseCount> dropped_by_cause;
  };
  std::vector<ChannelStats> Stats() const;

  // Alerts the rate limiter kept from every channel.
  uint64_t rate_limited() const;

 private:
  explicit AlertOutputs(const OutputsConfig& config);

  OutputsConfig config_;
  std::vector<std::unique_ptr<ChannelWorker>> workers_;
  mutable std::mutex mu_;  // guards limiter_, rate_limited_, closed_
  RateLimiter limiter_;
  uint64_t rate_limited_ = 0;
  bool closed_ = false;
};

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_ALERT_OUTPUTS_H_
