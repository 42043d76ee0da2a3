// The Kafka channel: librdkafka's producer, driven from the channel's
// worker thread. Send hands the alert to the producer's queue; the
// delivery reports, served by Poll and Drain, say what became of it.
#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"
#include "agent/outputs/network_channels_module.h"
#include "agent/quote.h"
#include "engine/rules/priority.h"

namespace kestrel::agent::outputs {
namespace {

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
using ConfPtr = std::unique_ptr<rd_kafka_conf_t, ConfDeleter>;

absl::Status SetProperty(rd_kafka_conf_t* conf, const std::string& name, const std::string& value,
                         std::string_view what) {
  char err[512] = "";
  if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), err, sizeof(err)) != RD_KAFKA_CONF_OK) {
    return absl::InvalidArgumentError(
        absl::StrCat("kafka output: ", std::string(what), " ", Quote(name), ": ", err));
  }
  return absl::OkStatus();
}

// The producer's settings: the options, then Kestrel's guarantees.
absl::StatusOr<ConfPtr> BuildConf(const KafkaOptions& options) {
  if (options.brokers.empty()) {
    return absl::InvalidArgumentError("kafka output: no brokers (kafka_output.brokers)");
  }
  if (options.topic.empty()) {
    return absl::InvalidArgumentError("kafka output: no topic (kafka_output.topic)");
  }
  ConfPtr conf(rd_kafka_conf_new());
  if (absl::Status s = SetProperty(conf.get(), "client.id", "kestrel", "property"); !s.ok()) {
    return s;
  }
  for (const auto& [name, value] : options.properties) {
    if (std::string why = KafkaReservedProperty(name); !why.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kafka output: property ", Quote(name), " is not passed through: ", why));
    }
    if (absl::Status s = SetProperty(conf.get(), name, value, "property"); !s.ok()) return s;
  }
  const std::pair<std::string, std::string> ours[] = {
      {"bootstrap.servers", options.brokers},
      {"enable.idempotence", "true"},
      {"acks", "all"},
      {"queue.buffering.max.messages", absl::StrCat(options.queue_capacity)},
      {"message.timeout.ms", absl::StrCat(options.message_timeout_ms)},
  };
  for (const auto& [name, value] : ours) {
    if (absl::Status s = SetProperty(conf.get(), name, value, "setting"); !s.ok()) return s;
  }
  return conf;
}

class KafkaChannel : public AlertChannel {
 public:
  KafkaChannel() = default;
  ~KafkaChannel() override {
    if (topic_ != nullptr) rd_kafka_topic_destroy(topic_);
    if (rk_ != nullptr) {
      // Drain purged what it could not deliver; nothing is left to wait for.
      rd_kafka_purge(rk_, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
      rd_kafka_destroy(rk_);
    }
  }

  absl::Status Open(const KafkaOptions& options) {
    absl::StatusOr<ConfPtr> conf = BuildConf(options);
    if (!conf.ok()) return conf.status();
    on_log_ = options.on_log;
    for (const auto& [name, value] : options.properties) debug_ |= name == "debug";
    rd_kafka_conf_set_opaque(conf->get(), this);
    rd_kafka_conf_set_dr_msg_cb(conf->get(), &KafkaChannel::OnDelivery);
    // librdkafka's own lines go where Kestrel's go, not straight to stderr:
    // errors always, its log (which repeats them) only when debugging.
    rd_kafka_conf_set_error_cb(conf->get(), &KafkaChannel::OnError);
    rd_kafka_conf_set_log_cb(conf->get(), &KafkaChannel::OnLog);
    char err[512] = "";
    // On success the producer owns the settings.
    rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf->get(), err, sizeof(err));
    if (rk_ == nullptr) return absl::InvalidArgumentError(absl::StrCat("kafka output: ", err));
    conf->release();
    topic_ = rd_kafka_topic_new(rk_, options.topic.c_str(), nullptr);
    if (topic_ == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("kafka output: topic ", Quote(options.topic),
                                                     ": ",
                                                     rd_kafka_err2str(rd_kafka_last_error())));
    }
    return absl::OkStatus();
  }

  std::string_view name() const override { return "kafka"; }

  absl::Status Send(const FormattedAlert& alert) override {
    const std::string_view priority = engine::rules::PriorityName(alert.priority);
    const rd_kafka_resp_err_t err = rd_kafka_producev(
        rk_, RD_KAFKA_V_RKT(topic_), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
        RD_KAFKA_V_KEY(alert.rule.data(), alert.rule.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(alert.json.data()), alert.json.size()),
        RD_KAFKA_V_HEADER("priority", priority.data(), static_cast<ssize_t>(priority.size())),
        RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      return DropError(DropCause::kQueueFull, "kafka output: the producer's queue is full");
    }
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return KafkaError(err);
    ++pending_;
    return absl::OkStatus();
  }

  void Abort() override {
    aborted_.store(true);
    if (rk_ != nullptr) rd_kafka_yield(rk_);
  }

  bool TakeReports(DeliveryReports* reports) override {
    reports_ = reports;
    return true;
  }

  void Poll() override { rd_kafka_poll(rk_, 0); }

  uint64_t Waiting() override {
    const int n = rd_kafka_outq_len(rk_);
    return n > 0 ? static_cast<uint64_t>(n) : 0;
  }

  void Drain(std::chrono::steady_clock::time_point deadline) override {
    using std::chrono::milliseconds;
    while (pending_ > 0 && !aborted_.load()) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      const auto wait = std::min<std::chrono::steady_clock::duration>(left, milliseconds(50));
      rd_kafka_poll(rk_, static_cast<int>(std::chrono::ceil<milliseconds>(wait).count()));
    }
    if (pending_ == 0) return;
    // Out of time: what the producer still holds is given up, and its
    // reports (purged, in the queue or in flight) come with the next polls.
    rd_kafka_purge(rk_, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
    const auto until = std::chrono::steady_clock::now() + milliseconds(500);
    while (pending_ > 0 && std::chrono::steady_clock::now() < until) rd_kafka_poll(rk_, 10);
    if (pending_ > 0 && reports_ != nullptr) reports_->Failed(CutAtStop(), pending_);
    pending_ = 0;
    drained_ = true;
  }

 private:
  static absl::Status KafkaError(rd_kafka_resp_err_t err) {
    return DeliveryError(FailureCause::kKafkaError,
                         absl::StrCat("kafka output: ", rd_kafka_err2str(err)), err);
  }
  static absl::Status CutAtStop() {
    return DeliveryError(FailureCause::kCutAtStop,
                         "kafka output: not delivered by the end of the drain time");
  }

  static void OnError(rd_kafka_t*, int err, const char* reason, void* opaque) {
    auto* self = static_cast<KafkaChannel*>(opaque);
    if (!self->on_log_) return;
    self->on_log_(absl::StrCat(
        "kafka output: ", rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err)), ": ", reason));
  }

  static void OnLog(const rd_kafka_t* rk, int /*level*/, const char* fac, const char* buf) {
    auto* self = static_cast<KafkaChannel*>(rd_kafka_opaque(rk));
    if (self == nullptr || !self->debug_ || !self->on_log_) return;
    self->on_log_(absl::StrCat("kafka output: ", fac, ": ", buf));
  }

  static void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
    auto* self = static_cast<KafkaChannel*>(opaque);
    if (self->drained_ || self->reports_ == nullptr) return;  // counted already
    if (self->pending_ > 0) --self->pending_;
    switch (message->err) {
      case RD_KAFKA_RESP_ERR_NO_ERROR:
        self->reports_->Delivered(1);
        break;
      case RD_KAFKA_RESP_ERR__PURGE_QUEUE:
      case RD_KAFKA_RESP_ERR__PURGE_INFLIGHT:
        self->reports_->Failed(CutAtStop(), 1);
        break;
      default:
        self->reports_->Failed(KafkaError(message->err), 1);
    }
  }

  rd_kafka_t* rk_ = nullptr;
  rd_kafka_topic_t* topic_ = nullptr;
  DeliveryReports* reports_ = nullptr;
  std::function<void(const std::string&)> on_log_;  // set before the producer starts
  bool debug_ = false;
  uint64_t pending_ = 0;  // produced, not reported on; the worker thread only
  bool drained_ = false;  // the worker thread only
  std::atomic<bool> aborted_{false};
};

}  // namespace

std::string KafkaErrorName(int err) {
  return rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err));
}

absl::Status CheckKafkaConf(const KafkaOptions& options) {
  absl::StatusOr<ConfPtr> conf = BuildConf(options);
  return conf.status();
}

ChannelOrError NewKafkaChannel(const KafkaOptions& options) {
  auto channel = std::make_unique<KafkaChannel>();
  if (absl::Status s = channel->Open(options); !s.ok()) return s;
  return std::unique_ptr<AlertChannel>(std::move(channel));
}

}  // namespace kestrel::agent::outputs
