// The seam between the alert outputs and their network module. The HTTP
// and Kafka channels (libcurl and librdkafka, and through them GnuTLS,
// OpenSSL, Kerberos, LDAP ... some 6.5 MB mapped and relocated at start)
// live in kestrel_network_outputs.so, which channels.h's factories load
// (agent/modules/module_loader.h) only when such a channel is configured.
#ifndef KESTREL_AGENT_OUTPUTS_NETWORK_CHANNELS_MODULE_H_
#define KESTREL_AGENT_OUTPUTS_NETWORK_CHANNELS_MODULE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "agent/outputs/alert_channel.h"
#include "agent/outputs/channels.h"

namespace kestrel::agent::outputs {

using ChannelOrError = absl::StatusOr<std::unique_ptr<AlertChannel>>;

// The module's entry points: results through the last argument.
using NewHttpChannelFn = void (*)(const HttpOptions* options, ChannelOrError* out);
using NewKafkaChannelFn = void (*)(const KafkaOptions* options, ChannelOrError* out);
using CheckKafkaConfFn = void (*)(const KafkaOptions* options, absl::Status* out);
using KafkaErrorNameFn = void (*)(int err, std::string* out);

inline constexpr char kNetworkOutputsModuleFile[] = "kestrel_network_outputs.so";
inline constexpr char kNewHttpChannelSymbol[] = "kestrel_new_http_channel";
inline constexpr char kNewKafkaChannelSymbol[] = "kestrel_new_kafka_channel";
inline constexpr char kCheckKafkaConfSymbol[] = "kestrel_check_kafka_conf";
inline constexpr char kKafkaErrorNameSymbol[] = "kestrel_kafka_error_name";

// Inside the module (http_channel.cpp, kafka_channel.cpp): what the entry
// points call (and KafkaErrorName, delivery_failure.h). The URL is
// checked already (CheckHttpUrl).
ChannelOrError NewHttpChannel(const HttpOptions& options);
ChannelOrError NewKafkaChannel(const KafkaOptions& options);
absl::Status CheckKafkaConf(const KafkaOptions& options);

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_NETWORK_CHANNELS_MODULE_H_
