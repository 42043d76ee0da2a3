// kestrel_network_outputs.so's entry points (network_channels_module.h).
#include "agent/outputs/network_channels_module.h"

#include <string>

#include "agent/outputs/delivery_failure.h"

#define KESTREL_MODULE_ENTRY extern "C" __attribute__((visibility("default")))

using kestrel::agent::outputs::ChannelOrError;
using kestrel::agent::outputs::HttpOptions;
using kestrel::agent::outputs::KafkaOptions;

KESTREL_MODULE_ENTRY void kestrel_new_http_channel(const HttpOptions* options,
                                                   ChannelOrError* out) {
  *out = kestrel::agent::outputs::NewHttpChannel(*options);
}

KESTREL_MODULE_ENTRY void kestrel_new_kafka_channel(const KafkaOptions* options,
                                                    ChannelOrError* out) {
  *out = kestrel::agent::outputs::NewKafkaChannel(*options);
}

KESTREL_MODULE_ENTRY void kestrel_check_kafka_conf(const KafkaOptions* options, absl::Status* out) {
  *out = kestrel::agent::outputs::CheckKafkaConf(*options);
}

KESTREL_MODULE_ENTRY void kestrel_kafka_error_name(int err, std::string* out) {
  *out = kestrel::agent::outputs::KafkaErrorName(err);
}
