// One channel's bounded queue and the thread that drains it into the
// channel: Push never waits; when the queue is full its oldest alert is
// dropped for this channel only and counted. Full is `capacity` alerts
// (outputs_queue.capacity; 0: no count limit, Falco's "unbounded") or
// `max_bytes` of alerts' text, whichever comes first: memory stays bounded
// whatever a channel does.
// For a channel that delivers
// later (Kafka), the worker also polls it for its reports and counts an
// alert sent or failed when its report comes.
#ifndef KESTREL_AGENT_OUTPUTS_CHANNEL_WORKER_H_
#define KESTREL_AGENT_OUTPUTS_CHANNEL_WORKER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "agent/outputs/alert_channel.h"
#include "agent/outputs/delivery_failure.h"

namespace kestrel::agent::outputs {

class ChannelWorker : private DeliveryReports {
 public:
  // `buffered`: flush the channel when the queue runs empty rather than
  // after every alert.
  // `on_failure` (may be empty) hears of failed sends, rate-limited as
  // OutputsConfig::on_failure says.
  ChannelWorker(std::unique_ptr<AlertChannel> channel, size_t capacity, bool buffered,
                std::function<void(const std::string&)> on_failure = {},
                size_t max_bytes = kDefaultMaxQueuedBytes);

  // Each channel's limit on the bytes of the alerts it holds queued.
  static constexpr size_t kDefaultMaxQueuedBytes = 64u << 20;
  ~ChannelWorker() override;  // Stop with no time to drain, if not stopped yet

  void Push(std::shared_ptr<const FormattedAlert> alert);
  // Counts an alert that came after the outputs closed.
  void DropClosed() { Dropped(DropCause::kClosed, 1); }
  void Reopen();
  // Sends what is queued until `deadline`, then cuts the channel off, and
  // closes it (a program is waited for, briefly, once its stdin closes).
  void Stop(std::chrono::steady_clock::time_point deadline);

  const std::string& name() const { return name_; }
  uint64_t sent() const { return sent_.load(std::memory_order_relaxed); }
  uint64_t failed() const { return failed_.load(std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // Whether the channel delivers later; if so, what it took and has not
  // reported on yet.
  bool delivers_later() const { return delivers_later_; }
  uint64_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }
  // The channel's Waiting(), as last sampled on the worker thread (after
  // each Send and Poll, and after the drain at stop).
  uint64_t waiting() const { return waiting_.load(std::memory_order_relaxed); }
  // failed() by cause, in the order first seen; none with a count of 0.
  std::vector<std::pair<FailureKey, uint64_t>> failures() const;
  uint64_t dropped(DropCause cause) const {
    return dropped_by_[static_cast<size_t>(cause)].load(std::memory_order_relaxed);
  }

 private:
  void Run();
  // Flushes the channel; a failure moves what it held from sent to failed.
  void Flush();
  // Counts `alerts` failed, by cause, and tells on_failure_ when it is time to.
  void CountFailed(const absl::Status& why, uint64_t alerts);
  void Dropped(DropCause cause, uint64_t alerts);
  // Polls a channel that delivers later and samples what it still holds.
  void PollChannel();
  // DeliveryReports, for a channel that delivers later.
  void Delivered(uint64_t alerts) override;
  void Failed(const absl::Status& why, uint64_t alerts) override;

  std::unique_ptr<AlertChannel> channel_;
  const std::string name_;
  const size_t capacity_;   // 0: no count limit
  const size_t max_bytes_;  // of queued alerts' text
  const bool buffered_;
  bool delivers_later_ = false;  // set before the thread starts

  std::mutex mu_;
  std::condition_variable wake_;     // the worker: work, reopen or stop
  std::condition_variable drained_;  // Stop: the worker finished
  std::deque<std::shared_ptr<const FormattedAlert>> queue_;
  size_t queued_bytes_ = 0;  // the alerts' in queue_, by QueuedBytes
  bool stopping_ = false;
  bool aborted_ = false;
  bool finished_ = false;
  bool reopen_ = false;
  std::chrono::steady_clock::time_point deadline_{};  // Stop's

  std::function<void(const std::string&)> on_failure_;
  std::chrono::steady_clock::time_point next_report_{};  // worker thread only
  uint64_t untold_failures_ = 0;                         // worker thread only
  uint64_t unflushed_ = 0;  // sent since the last flush; worker thread only

  std::atomic<uint64_t> sent_{0};
  std::atomic<uint64_t> failed_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> in_flight_{0};
  std::atomic<uint64_t> waiting_{0};
  std::atomic<uint64_t> dropped_by_[2] = {0, 0};  // by DropCause
  mutable std::mutex failures_mu_;                // guards failures_
  // A handful of causes at most: a vector beats a map.
  std::vector<std::pair<FailureKey, uint64_t>> failures_;
  std::thread thread_;
};

}  // namespace kestrel::agent::outputs

#endif  // KESTREL_AGENT_OUTPUTS_CHANNEL_WORKER_H_
