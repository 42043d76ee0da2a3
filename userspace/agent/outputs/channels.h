// The channels AlertOutputs can open, one factory each: an error names the
// channel and what failed.
#ifndef KESTREL_AGENT_OUTPUTS_CHANNELS_H_
#define KESTREL_AGENT_OUTPUTS_CHANNELS_H_

#include <chrono>
#include <memory>
#include <string>

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

// The JSON form POSTed to `url` (Content-Type: application/json); a
// transport error or an HTTP status of 400 or more is a failure.
absl::StatusOr<std::unique_ptr<AlertChannel>> MakeHttpChannel(const std::string& url,
                                                              std::chrono::milliseconds timeout);

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_CHANNELS_H_
