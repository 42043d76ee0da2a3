// One channel's bounded queue and the thread that drains it into the
// channel: Push never waits; when the queue is full its oldest alert is
// dropped for this channel only and counted.
#ifndef KESTREL_ENGINE_ALERTS_CHANNEL_WORKER_H_
#define KESTREL_ENGINE_ALERTS_CHANNEL_WORKER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/alerts/alert_channel.h"

namespace kestrel::engine::alerts {

class ChannelWorker {
 public:
  // `buffered`: flush the channel when the queue runs empty rather than
  // after every alert.
  ChannelWorker(std::unique_ptr<AlertChannel> channel, size_t capacity, bool buffered);
  ~ChannelWorker();  // Stop with no time to drain, if not stopped yet

  void Push(std::shared_ptr<const FormattedAlert> alert);
  void Reopen();
  // Sends what is queued until `deadline`, then cuts the channel off, and
  // closes it (a program is waited for, briefly, once its stdin closes).
  void Stop(std::chrono::steady_clock::time_point deadline);

  const std::string& name() const { return name_; }
  uint64_t sent() const { return sent_.load(std::memory_order_relaxed); }
  uint64_t failed() const { return failed_.load(std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  void Run();

  std::unique_ptr<AlertChannel> channel_;
  const std::string name_;
  const size_t capacity_;
  const bool buffered_;

  std::mutex mu_;
  std::condition_variable wake_;     // the worker: work, reopen or stop
  std::condition_variable drained_;  // Stop: the worker finished
  std::deque<std::shared_ptr<const FormattedAlert>> queue_;
  bool stopping_ = false;
  bool aborted_ = false;
  bool finished_ = false;
  bool reopen_ = false;

  std::atomic<uint64_t> sent_{0};
  std::atomic<uint64_t> failed_{0};
  std::atomic<uint64_t> dropped_{0};
  std::thread thread_;
};

}  // namespace kestrel::engine::alerts

#endif  // KESTREL_ENGINE_ALERTS_CHANNEL_WORKER_H_
