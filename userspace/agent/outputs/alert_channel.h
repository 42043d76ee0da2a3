// One destination of alerts. A channel is used by its worker thread only;
// Abort alone may come from another thread, to cut off a stuck Send.
#ifndef KESTREL_AGENT_OUTPUTS_ALERT_CHANNEL_H_
#define KESTREL_AGENT_OUTPUTS_ALERT_CHANNEL_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "engine/rules/priority.h"

namespace kestrel::agent::outputs {

// An alert as the channels receive it: formatted once for all of them.
struct FormattedAlert {
  engine::rules::Priority priority;
  std::string line;  // text or JSON, as json_output asks; no newline
  std::string json;  // the JSON form, for channels that always send JSON
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
  // Called from another thread: makes a Send in progress return soon.
  virtual void Abort() {}
};

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_ALERT_CHANNEL_H_
