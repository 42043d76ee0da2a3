// Which kafka_output.properties Kestrel keeps for itself: told at config
// time, before any module is loaded, and again by the module's producer.
#include <string>

#include "agent/outputs/channels.h"

namespace kestrel::agent::outputs {

std::string KafkaReservedProperty(const std::string& property) {
  if (property == "bootstrap.servers" || property == "metadata.broker.list") {
    return "set kafka_output.brokers";
  }
  if (property == "queue.buffering.max.messages") return "set kafka_output.queue_capacity";
  if (property == "message.timeout.ms" || property == "delivery.timeout.ms") {
    return "set kafka_output.message_timeout_ms";
  }
  if (property == "enable.idempotence" || property == "acks" ||
      property == "request.required.acks") {
    return "Kestrel's producer is always idempotent, with acks=all";
  }
  return "";
}

}  // namespace kestrel::agent::outputs
