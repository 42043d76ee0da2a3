#include "agent/outputs/channel_worker.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace kestrel::agent::outputs {
namespace {

// What an alert costs a queue: its text and JSON, and the bookkeeping.
size_t QueuedBytes(const FormattedAlert& alert) {
  return alert.line.size() + alert.json.size() + sizeof(FormattedAlert) + 64;
}

}  // namespace

ChannelWorker::ChannelWorker(std::unique_ptr<AlertChannel> channel, size_t capacity, bool buffered,
                             std::function<void(const std::string&)> on_failure, size_t max_bytes)
    : channel_(std::move(channel)),
      name_(channel_->name()),
      capacity_(capacity),
      max_bytes_(max_bytes),
      buffered_(buffered),
      on_failure_(std::move(on_failure)) {
  delivers_later_ = channel_->TakeReports(this);
  thread_ = std::thread([this] { Run(); });
}

ChannelWorker::~ChannelWorker() { Stop(std::chrono::steady_clock::now()); }

void ChannelWorker::Push(std::shared_ptr<const FormattedAlert> alert) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      Dropped(DropCause::kClosed, 1);
      return;
    }
    // A stuck channel keeps the newest alerts: when it recovers, what it
    // sends first is what is happening now, not what was queued long ago.
    // The newest always gets in, even alone above max_bytes_: it is held
    // once, shared by every channel.
    const size_t bytes = QueuedBytes(*alert);
    while (!queue_.empty() &&
           ((capacity_ != 0 && queue_.size() >= capacity_) || queued_bytes_ + bytes > max_bytes_)) {
      queued_bytes_ -= QueuedBytes(*queue_.front());
      queue_.pop_front();
      Dropped(DropCause::kQueueFull, 1);
    }
    queued_bytes_ += bytes;
    queue_.push_back(std::move(alert));
  }
  wake_.notify_one();
}

void ChannelWorker::Reopen() {
  {
    std::lock_guard lock(mu_);
    reopen_ = true;
  }
  wake_.notify_one();
}

void ChannelWorker::Stop(std::chrono::steady_clock::time_point deadline) {
  if (!thread_.joinable()) return;
  std::unique_lock lock(mu_);
  stopping_ = true;
  deadline_ = deadline;
  wake_.notify_one();
  if (!drained_.wait_until(lock, deadline, [this] { return finished_; })) {
    // Out of time: what is still queued will never be tried, and a Send
    // in progress is cut short.
    aborted_ = true;
    Dropped(DropCause::kClosed, queue_.size());
    queue_.clear();
    queued_bytes_ = 0;
    lock.unlock();
    channel_->Abort();
  } else {
    lock.unlock();
  }
  thread_.join();
  // Closes what the channel holds open: a program gets EOF and is waited for.
  channel_.reset();
}

void ChannelWorker::Flush() {
  absl::Status s = channel_->Flush();
  if (!s.ok() && unflushed_ > 0) {
    // Counted as sent when Send buffered them; they never got out.
    sent_.fetch_sub(unflushed_, std::memory_order_relaxed);
    CountFailed(s, unflushed_);
  }
  unflushed_ = 0;
}

void ChannelWorker::Dropped(DropCause cause, uint64_t alerts) {
  if (alerts == 0) return;
  dropped_.fetch_add(alerts, std::memory_order_relaxed);
  dropped_by_[static_cast<size_t>(cause)].fetch_add(alerts, std::memory_order_relaxed);
}

std::vector<std::pair<FailureKey, uint64_t>> ChannelWorker::failures() const {
  std::lock_guard lock(failures_mu_);
  return failures_;
}

void ChannelWorker::PollChannel() {
  channel_->Poll();
  waiting_.store(channel_->Waiting(), std::memory_order_relaxed);
}

void ChannelWorker::Delivered(uint64_t alerts) {
  sent_.fetch_add(alerts, std::memory_order_relaxed);
  in_flight_.fetch_sub(alerts, std::memory_order_relaxed);
}

void ChannelWorker::Failed(const absl::Status& why, uint64_t alerts) {
  in_flight_.fetch_sub(alerts, std::memory_order_relaxed);
  CountFailed(why, alerts);
}

void ChannelWorker::CountFailed(const absl::Status& why, uint64_t alerts) {
  FailureKey key = FailureOf(why);
  {
    // Whatever a channel says once Stop gave up on it (a write to the
    // program just killed, a request aborted), shutdown is the cause.
    std::lock_guard lock(mu_);
    if (aborted_) key = FailureKey{FailureCause::kCutAtStop, 0};
  }
  {
    std::lock_guard lock(failures_mu_);
    auto it = std::find_if(failures_.begin(), failures_.end(),
                           [&](const auto& f) { return f.first == key; });
    if (it == failures_.end()) {
      failures_.emplace_back(key, alerts);
    } else {
      it->second += alerts;
    }
  }
  failed_.fetch_add(alerts, std::memory_order_relaxed);
  if (!on_failure_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_report_) {
    untold_failures_ += alerts;
    return;
  }
  std::string line = absl::StrCat(name_, " output failed (",
                                  std::string(FailureCauseName(key.cause)), "): ", why.message());
  if (untold_failures_ > 0) {
    absl::StrAppend(&line, " (and ", untold_failures_, " more failures since the last report)");
  }
  untold_failures_ = 0;
  next_report_ = now + std::chrono::seconds(10);
  on_failure_(line);
}

void ChannelWorker::Run() {
  // A program or a reader that exits must show up as a failed write
  // (EPIPE), not kill the process: SIGPIPE goes to the writing thread.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);

  std::unique_lock lock(mu_);
  const auto work = [this] { return !queue_.empty() || stopping_ || reopen_; };
  for (;;) {
    if (!delivers_later_) {
      wake_.wait(lock, work);
    } else {
      // Reports come in only while the channel is polled.
      while (!wake_.wait_for(lock, std::chrono::milliseconds(100), work)) {
        lock.unlock();
        PollChannel();
        lock.lock();
      }
    }
    if (reopen_) {
      reopen_ = false;
      lock.unlock();
      // What the channel holds goes out (or is counted failed) first: a
      // reopen has no one to tell of a failure.
      Flush();
      channel_->Reopen();
      lock.lock();
      continue;
    }
    if (queue_.empty() || aborted_) break;  // stopping, with nothing left
    std::shared_ptr<const FormattedAlert> alert = std::move(queue_.front());
    queue_.pop_front();
    queued_bytes_ -= QueuedBytes(*alert);
    const bool more = !queue_.empty();
    lock.unlock();
    if (delivers_later_) in_flight_.fetch_add(1, std::memory_order_relaxed);
    absl::Status s = channel_->Send(*alert);
    if (!s.ok() && delivers_later_) in_flight_.fetch_sub(1, std::memory_order_relaxed);
    DropCause drop;
    if (s.ok()) {
      if (!delivers_later_) {
        sent_.fetch_add(1, std::memory_order_relaxed);
        ++unflushed_;
      }
    } else if (DropOf(s, drop)) {
      Dropped(drop, 1);
    } else {
      CountFailed(s, 1);
    }
    if (!buffered_ || !more) Flush();
    if (delivers_later_) PollChannel();
    lock.lock();
  }
  lock.unlock();
  Flush();
  lock.lock();
  if (delivers_later_) {
    // What the channel took is delivered, or reported failed, by Stop's
    // deadline (at once when Stop already gave up).
    const auto deadline = deadline_;
    lock.unlock();
    channel_->Drain(deadline);
    // The exit stats show what a purge left behind, if anything.
    waiting_.store(channel_->Waiting(), std::memory_order_relaxed);
    lock.lock();
  }
  finished_ = true;
  drained_.notify_all();
}

}  // namespace kestrel::agent::outputs
