#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"

namespace kestrel::agent::outputs {
namespace {

constexpr int kFacilityUser = 1 << 3;  // LOG_USER

class SyslogChannel : public AlertChannel {
 public:
  explicit SyslogChannel(std::string socket_path) : path_(std::move(socket_path)) {}
  ~SyslogChannel() override {
    if (fd_ >= 0) close(fd_);
  }

  std::string_view name() const override { return "syslog"; }

  absl::Status Send(const FormattedAlert& alert) override {
    // Falco's priorities are syslog's levels, in the same order from 0.
    const std::string datagram =
        absl::StrCat("<", kFacilityUser | static_cast<int>(alert.priority), ">", Timestamp(),
                     " kestrel[", getpid(), "]: ", alert.line);
    // Connected lazily and again after a failure: a syslog daemon that
    // restarts gets a new socket.
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (fd_ < 0) {
        if (absl::Status s = Connect(); !s.ok()) return s;
      }
      if (send(fd_, datagram.data(), datagram.size(), MSG_NOSIGNAL) >= 0) {
        return absl::OkStatus();
      }
      const int err = errno;
      close(fd_);
      fd_ = -1;
      if (attempt == 1) {
        return DeliveryError(FailureCause::kWriteError, absl::StrCat("syslog: ", strerror(err)),
                             err);
      }
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Connect() {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path_.size() >= sizeof addr.sun_path) {
      return DeliveryError(FailureCause::kConnectError,
                           absl::StrCat("syslog: socket path too long: ", path_), ENAMETOOLONG);
    }
    memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
    // Non-blocking: a stalled daemon fails the send instead of holding
    // the channel's thread.
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd_ < 0) {
      const int err = errno;
      return DeliveryError(FailureCause::kConnectError,
                           absl::StrCat("syslog: socket: ", strerror(err)), err);
    }
    if (connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      // ENOENT: no syslog daemon (no /dev/log); ECONNREFUSED: none behind it.
      const int err = errno;
      close(fd_);
      fd_ = -1;
      return DeliveryError(FailureCause::kConnectError,
                           absl::StrCat("syslog: ", path_, ": ", strerror(err)), err);
    }
    return absl::OkStatus();
  }

  // "Dec  6 02:31:07", local time, as syslog(3) writes it.
  static std::string Timestamp() {
    const time_t now = time(nullptr);
    tm local{};
    localtime_r(&now, &local);
    char buf[32];
    strftime(buf, sizeof buf, "%b %e %H:%M:%S", &local);
    return buf;
  }

  std::string path_;
  int fd_ = -1;
};

}  // namespace

std::unique_ptr<AlertChannel> MakeSyslogChannel(const std::string& socket_path) {
  return std::make_unique<SyslogChannel>(socket_path);
}

}  // namespace kestrel::agent::outputs
