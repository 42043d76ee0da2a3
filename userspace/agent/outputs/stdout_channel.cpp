#include <unistd.h>

#include "agent/outputs/channels.h"
#include "agent/outputs/fd_write.h"

namespace kestrel::agent::outputs {
namespace {

class StdoutChannel : public AlertChannel {
 public:
  std::string_view name() const override { return "stdout"; }

  absl::Status Send(const FormattedAlert& alert) override {
    pending_.append(alert.line);
    pending_.push_back('\n');
    // A failed write loses only what it carried, and is that alert's failure.
    if (pending_.size() >= kMaxPending) return Write();
    return absl::OkStatus();
  }

  absl::Status Flush() override { return Write(); }

 private:
  static constexpr size_t kMaxPending = size_t{64} * 1024;

  absl::Status Write() {
    absl::Status s = WriteAll(STDOUT_FILENO, pending_);
    pending_.clear();
    return s;
  }

  std::string pending_;
};

}  // namespace

std::unique_ptr<AlertChannel> MakeStdoutChannel() { return std::make_unique<StdoutChannel>(); }

}  // namespace kestrel::agent::outputs
