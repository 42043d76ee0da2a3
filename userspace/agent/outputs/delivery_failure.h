// Why an alert was not delivered, as the stats and the stderr line name it.
// A channel knows the errno or exit status behind a failure, and the worker
// that counts it only sees the absl::Status: the channel builds its error
// with DeliveryError, and FailureOf reads it back, the one place a status
// becomes a cause (an error built any other way still gets one).
#ifndef KESTREL_AGENT_OUTPUTS_DELIVERY_FAILURE_H_
#define KESTREL_AGENT_OUTPUTS_DELIVERY_FAILURE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace kestrel::agent::outputs {

enum class FailureCause : uint8_t {
  kWriteError,       // a write or send failed (errno)
  kOpenError,        // the file could not be opened (errno)
  kConnectError,     // no syslog socket, an HTTP connection refused (errno)
  kSpawnError,       // the program could not be started (errno)
  kProgramNotFound,  // sh exited 127: no such command
  kNonzeroExit,      // the program ran and exited with another nonzero status
  kTimeout,          // the HTTP request took longer than output_timeout
  kHttpStatus,       // the server answered with a status of 400 or more
  kTlsError,         // TLS refused: a certificate not trusted, a client one missing
  kHttpError,        // another HTTP transfer error (curl's words on stderr)
  kKafkaError,       // Kafka's delivery report: its error code in place of an errno
  kCutAtStop,        // cut off at shutdown, out of drain time
  kOther,            // an error built without a cause
};

// What the stats group failures by: the cause, and the errno for those
// that have one (0 otherwise), so a full disk and a broken pipe stay apart;
// for a Kafka error, librdkafka's error code.
struct FailureKey {
  FailureCause cause = FailureCause::kOther;
  int err = 0;
  bool operator==(const FailureKey&) const = default;
};

// "write error", "timeout" ...
std::string_view FailureCauseName(FailureCause cause);

// The cause's name, with the errno's text when there is one: "write error:
// No space left on device"; librdkafka's name for a Kafka error: "kafka
// error: _MSG_TIMED_OUT".
std::string FailureKeyName(const FailureKey& key);

// librdkafka's name of a Kafka error code (RD_KAFKA_RESP_ERR_*): from the
// network module (network_channels.cpp), or inside it from librdkafka
// itself (kafka_channel.cpp).
std::string KafkaErrorName(int err);

// A channel's error: `message` for people, `cause` and `err` (0: none) for
// the counters.
absl::Status DeliveryError(FailureCause cause, std::string_view message, int err = 0);

// The cause `status` carries; for an error not built by DeliveryError, one
// guessed from its code (DeadlineExceeded is a timeout, Cancelled a cut at
// stop), kOther otherwise.
FailureKey FailureOf(const absl::Status& status);

// Why an alert was never tried.
enum class DropCause : uint8_t {
  kQueueFull,  // the channel's queue was full: its oldest alert made room
  kClosed,     // queued when the channel closed, or emitted after
};

std::string_view DropCauseName(DropCause cause);

// A channel's Send error for an alert it never tried (Kafka's local queue
// full): counted as dropped for `cause`, not failed.
absl::Status DropError(DropCause cause, std::string_view message);

// The cause of an error built by DropError; false for any other.
bool DropOf(const absl::Status& status, DropCause& cause);

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_DELIVERY_FAILURE_H_
