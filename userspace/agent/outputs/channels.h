// The channels AlertOutputs can open, one factory each: an error names the
// channel and what failed.
#ifndef KESTREL_AGENT_OUTPUTS_CHANNELS_H_
#define KESTREL_AGENT_OUTPUTS_CHANNELS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/outputs/alert_channel.h"

namespace kestrel::agent::outputs {

// Lines to the process's stdout (descriptor 1).
std::unique_ptr<AlertChannel> MakeStdoutChannel();

// Lines appended to `filename` (created 0644 if missing). keep_alive:
// opened once (and again on Reopen); otherwise opened for every alert.
absl::StatusOr<std::unique_ptr<AlertChannel>> MakeFileChannel(const std::string& filename,
                                                              bool keep_alive);

// Datagrams to the local syslog socket as syslog(3) writes them, with the
// alert's priority as the level (Emergency -> LOG_EMERG ... Debug ->
// LOG_DEBUG), facility user. Unlike syslog(3), a send that fails (no
// socket, no daemon) is a failure, not a silent loss.
std::unique_ptr<AlertChannel> MakeSyslogChannel(const std::string& socket_path = "/dev/log");

// Lines on the stdin of `sh -c program`. keep_alive: one process, started
// again if it exits; otherwise a process per alert, waited for.
absl::StatusOr<std::unique_ptr<AlertChannel>> MakeProgramChannel(const std::string& program,
                                                                 bool keep_alive);

// OK for an http:// or https:// URL: libcurl would also read file:// or
// talk to other protocols, which an alert has no business with.
absl::Status CheckHttpUrl(const std::string& url);

// http_output's keys, as Falco reads them.
struct HttpOptions {
  bool enabled = false;
  std::string url;
  std::chrono::milliseconds timeout{2000};  // Falco's output_timeout, per try
  bool json = true;  // json_output: the JSON as application/json; else the text line
  std::string user_agent = "kestrel";
  bool insecure = false;  // no check of the server's certificate or name
  std::string ca_cert;    // a CA file; else ca_bundle; else the CAs in ca_path
  std::string ca_bundle;
  std::string ca_path;
  bool mtls = false;  // present client_cert and client_key
  std::string client_cert;
  std::string client_key;
  bool echo = false;  // the server's answers to stdout
  bool compress_uploads = false;
  bool keep_alive = false;  // TCP keep-alive on the kept connection
  // A timed-out post is tried again up to this many times; a refused
  // connection up to 3 times with a backoff of 100, 200, 400 ms, cut short
  // at stop.
  uint32_t max_consecutive_timeouts = 5;
};

// Each alert POSTed to the URL; a transport error or an HTTP status of 400
// or more (after the retries) is a failure.
absl::StatusOr<std::unique_ptr<AlertChannel>> MakeHttpChannel(const HttpOptions& options);

// kafka_output's keys (Kestrel's own).
struct KafkaOptions {
  bool enabled = false;
  std::string brokers;  // bootstrap.servers: host:port,host:port
  std::string topic;
  // Passed to librdkafka as they are (security.protocol, sasl.*, ssl.*,
  // compression.codec ...), but for those the keys below or Kestrel's
  // guarantees set (KafkaReservedProperty).
  std::vector<std::pair<std::string, std::string>> properties;
  uint64_t queue_capacity = 100000;      // queue.buffering.max.messages
  uint64_t message_timeout_ms = 300000;  // message.timeout.ms: retried until then
  // Told librdkafka's errors (a broker down, a refused login), one line
  // each, from librdkafka's threads; with the `debug` property, its debug
  // log too. Unset: not shown.
  std::function<void(const std::string&)> on_log;
};

// Why `property` may not be in kafka_output.properties (the key to use
// instead, or the guarantee it would break); empty if it may.
std::string KafkaReservedProperty(const std::string& property);

// OK if a producer could be made of `options`: brokers and a topic set,
// every property known to librdkafka with a value it takes. Nothing is
// connected to.
absl::Status CheckKafkaOptions(const KafkaOptions& options);

// Each alert's JSON produced to the topic, keyed by its rule's name (one
// rule's alerts stay in order in one partition), with a `priority` header;
// an idempotent producer with acks=all. Delivers later: an alert counts as
// sent when the broker acknowledged it, failed with librdkafka's error
// (message.timeout.ms passed) and dropped when the producer's queue was
// full. librdkafka connects and retries on its own, so the factory fails
// only on bad options.
absl::StatusOr<std::unique_ptr<AlertChannel>> MakeKafkaChannel(const KafkaOptions& options);

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_CHANNELS_H_
