// systemd's readiness protocol (sd_notify(3)) without libsystemd: one
// datagram to $NOTIFY_SOCKET per state change, so a Type=notify unit is
// ready exactly when the probe is attached and the reader runs.
#ifndef KESTREL_CLI_RUN_NOTIFY_H_
#define KESTREL_CLI_RUN_NOTIFY_H_

#include <string_view>

namespace kestrel::cli {

// Sends `state` ("READY=1", "RELOADING=1", "STOPPING=1") to the socket
// $NOTIFY_SOCKET names; nothing when it is unset or the send fails (the
// service manager is then not listening, and the run goes on).
void NotifyServiceManager(std::string_view state);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_NOTIFY_H_
