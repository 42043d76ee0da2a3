#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"
#include "agent/outputs/fd_write.h"

namespace kestrel::agent::outputs {
namespace {

absl::StatusOr<int> OpenForAppend(const std::string& filename) {
  const int fd = open(filename.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    return DeliveryError(FailureCause::kOpenError,
                         absl::StrCat("file output: cannot open ", filename, ": ", strerror(err)),
                         err);
  }
  return fd;
}

class FileChannel : public AlertChannel {
 public:
  FileChannel(std::string filename, bool keep_alive, int fd)
      : filename_(std::move(filename)), keep_alive_(keep_alive), fd_(fd) {}
  ~FileChannel() override {
    if (fd_ >= 0) close(fd_);
  }

  std::string_view name() const override { return "file"; }

  absl::Status Send(const FormattedAlert& alert) override {
    pending_.append(alert.line);
    pending_.push_back('\n');
    if (!keep_alive_ || pending_.size() >= kMaxPending) return Write();
    return absl::OkStatus();
  }

  absl::Status Flush() override { return Write(); }

  void Reopen() override {
    // What was written before the rename belongs to the old file.
    Write().IgnoreError();
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  static constexpr size_t kMaxPending = size_t{64} * 1024;

  absl::Status Write() {
    if (pending_.empty()) return absl::OkStatus();
    if (fd_ < 0) {
      absl::StatusOr<int> fd = OpenForAppend(filename_);
      if (!fd.ok()) {
        pending_.clear();
        return fd.status();
      }
      fd_ = *fd;
    }
    absl::Status s = WriteAll(fd_, pending_);
    pending_.clear();
    if (!keep_alive_ || !s.ok()) {
      // Not kept open, or broken: the next write opens the file afresh.
      close(fd_);
      fd_ = -1;
    }
    return s;
  }

  std::string filename_;
  bool keep_alive_;
  int fd_;
  std::string pending_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<AlertChannel>> MakeFileChannel(const std::string& filename,
                                                              bool keep_alive) {
  if (filename.empty()) return absl::InvalidArgumentError("file output: no filename");
  // Opened now even when not kept open, so a bad path fails at start.
  absl::StatusOr<int> fd = OpenForAppend(filename);
  if (!fd.ok()) return fd.status();
  int kept = *fd;
  if (!keep_alive) {
    close(kept);
    kept = -1;
  }
  return std::make_unique<FileChannel>(filename, keep_alive, kept);
}

}  // namespace kestrel::agent::outputs
