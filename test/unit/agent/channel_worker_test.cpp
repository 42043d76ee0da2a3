// A channel's queue: a count limit (outputs_queue.capacity), none with 0
// (Falco's "unbounded"), and always a limit on the bytes held, the oldest
// alert dropped first and counted as `queue full`.
#include "agent/outputs/channel_worker.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace kestrel::agent::outputs {
namespace {

// Holds every Send until Release; records what it was sent.
class GatedChannel : public AlertChannel {
 public:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    std::vector<std::string> sent;
  };
  explicit GatedChannel(State& state) : state_(state) {}
  std::string_view name() const override { return "gated"; }
  absl::Status Send(const FormattedAlert& alert) override {
    std::unique_lock lock(state_.mu);
    state_.cv.wait(lock, [&] { return state_.open; });
    state_.sent.push_back(alert.line);
    return absl::OkStatus();
  }

 private:
  State& state_;
};

std::shared_ptr<const FormattedAlert> Formatted(std::string line) {
  return std::make_shared<const FormattedAlert>(
      FormattedAlert{engine::rules::Priority::kWarning, std::move(line), "", ""});
}

void Release(GatedChannel::State& state) {
  {
    std::lock_guard lock(state.mu);
    state.open = true;
  }
  state.cv.notify_all();
}

TEST(ChannelWorkerTest, ZeroCapacityHasNoCountLimit) {
  GatedChannel::State state;
  ChannelWorker worker(std::make_unique<GatedChannel>(state), 0, false);
  constexpr int kAlerts = 5000;  // far past the default count of 1024
  for (int i = 0; i < kAlerts; ++i) worker.Push(Formatted(std::to_string(i)));
  Release(state);
  worker.Stop(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(worker.sent(), static_cast<uint64_t>(kAlerts));
  EXPECT_EQ(worker.dropped(), 0u);
  std::lock_guard lock(state.mu);
  ASSERT_EQ(state.sent.size(), static_cast<size_t>(kAlerts));
  EXPECT_EQ(state.sent.back(), std::to_string(kAlerts - 1));
}

TEST(ChannelWorkerTest, BytesStayBoundedAndTheOldestGoFirst) {
  GatedChannel::State state;
  // 64 KiB of queue; alerts of 10 KiB: 5 or 6 fit, whatever the count.
  ChannelWorker worker(std::make_unique<GatedChannel>(state), 0, false, {}, 64 << 10);
  constexpr int kAlerts = 100;
  for (int i = 0; i < kAlerts; ++i) {
    worker.Push(Formatted(std::to_string(i) + ":" + std::string(10 << 10, 'x')));
  }
  const uint64_t dropped = worker.dropped(DropCause::kQueueFull);
  EXPECT_GE(dropped, static_cast<uint64_t>(kAlerts - 7));
  EXPECT_LE(dropped, static_cast<uint64_t>(kAlerts - 5));
  Release(state);
  worker.Stop(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(worker.sent() + worker.dropped(), static_cast<uint64_t>(kAlerts));
  std::lock_guard lock(state.mu);
  ASSERT_FALSE(state.sent.empty());
  // The newest got through (the first Send may have taken an old one).
  EXPECT_TRUE(state.sent.back().starts_with(std::to_string(kAlerts - 1) + ":"));
}

TEST(ChannelWorkerTest, ANonZeroCapacityIsACount) {
  GatedChannel::State state;
  ChannelWorker worker(std::make_unique<GatedChannel>(state), 4, false);
  for (int i = 0; i < 50; ++i) worker.Push(Formatted(std::to_string(i)));
  // 4 queued, and at most one taken by the blocked Send.
  EXPECT_GE(worker.dropped(DropCause::kQueueFull), 45u);
  EXPECT_LE(worker.dropped(DropCause::kQueueFull), 46u);
  Release(state);
  worker.Stop(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  EXPECT_EQ(worker.sent() + worker.dropped(), 50u);
}

}  // namespace
}  // namespace kestrel::agent::outputs
