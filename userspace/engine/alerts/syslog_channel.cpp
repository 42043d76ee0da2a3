#include <syslog.h>

#include "engine/alerts/channels.h"

namespace kestrel::engine::alerts {
namespace {

class SyslogChannel : public AlertChannel {
 public:
  SyslogChannel() { openlog("kestrel", LOG_PID | LOG_NDELAY, LOG_USER); }
  ~SyslogChannel() override { closelog(); }

  std::string_view name() const override { return "syslog"; }

  absl::Status Send(const FormattedAlert& alert) override {
    // Falco's priorities are syslog's levels, in the same order from 0.
    syslog(LOG_USER | static_cast<int>(alert.priority), "%s", alert.line.c_str());
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<AlertChannel> MakeSyslogChannel() { return std::make_unique<SyslogChannel>(); }

}  // namespace kestrel::engine::alerts
