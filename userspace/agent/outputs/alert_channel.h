// One destination of alerts. A channel is used by its worker thread only;
// Abort alone may come from another thread, to cut off a stuck Send.
#ifndef KESTREL_AGENT_OUTPUTS_ALERT_CHANNEL_H_
#define KESTREL_AGENT_OUTPUTS_ALERT_CHANNEL_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "agent/outputs/delivery_failure.h"
#include "engine/rules/priority.h"

namespace kestrel::agent::outputs {

// An alert as the channels receive it: formatted once for all of them.
struct FormattedAlert {
  engine::rules::Priority priority;
  std::string line;  // text or JSON, as json_output asks; no newline
  std::string json;  // the JSON form, for channels that always send JSON
  std::string rule;  // the rule's name (Kafka's message key)
};

// Where a channel that delivers later (Kafka's producer) tells what became
// of the alerts its Send took. Called on the channel's worker thread only
// (from Send, Poll or Drain).
class DeliveryReports {
 public:
  virtual ~DeliveryReports() = default;
  virtual void Delivered(uint64_t alerts) = 0;
  virtual void Failed(const absl::Status& why, uint64_t alerts) = 0;
};

class AlertChannel {
 public:
  virtual ~AlertChannel() = default;
  virtual std::string_view name() const = 0;
  // Delivers one alert; an error counts it as failed.
  virtual absl::Status Send(const FormattedAlert& alert) = 0;
  // Pushes out what Send buffered (buffered_outputs); an error means the
  // alerts sent since the last flush were not delivered.
  virtual absl::Status Flush() { return absl::OkStatus(); }
  // Reopens the destination (the file channel, after logrotate's rename).
  virtual void Reopen() {}
  // Called from another thread: makes a Send (or a Drain) in progress
  // return soon.
  virtual void Abort() {}

  // A channel that delivers later returns true and keeps `reports`: its
  // Send returning OK then means "taken", neither sent nor failed until it
  // reports on the alert. (A Send error is counted at once, as for the
  // others: failed, or dropped for an error built by DropError.)
  virtual bool TakeReports(DeliveryReports* /*reports*/) { return false; }
  // Serves the reports that came in; called at least every 100 ms.
  virtual void Poll() {}
  // At stop, with nothing left to Send: waits for the reports on what was
  // taken until `deadline` (or an Abort), then reports what is still
  // pending as failed.
  virtual void Drain(std::chrono::steady_clock::time_point /*deadline*/) {}
  // For a channel that delivers later: what its client holds undelivered,
  // by the client's own count (Kafka: rd_kafka_outq_len, messages queued,
  // in flight or retried, and reports not yet served), so the lag shows
  // from the client's side, not only as what the worker handed over and
  // heard nothing of. Called on the worker thread only.
  virtual uint64_t Waiting() { return 0; }
};

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_ALERT_CHANNEL_H_
