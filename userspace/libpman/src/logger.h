// Routes a handle's messages to the embedder's log callback.
#ifndef KESTREL_LIBPMAN_LOGGER_H_
#define KESTREL_LIBPMAN_LOGGER_H_

#include <string>

#include "absl/strings/str_format.h"
#include "libpman.h"

namespace kestrel::pman {

class Logger {
 public:
  Logger(pman_log_fn fn, void* ctx) : fn_(fn), ctx_(ctx) {}

  void Log(pman_log_level level, const std::string& message) const {
    if (fn_ != nullptr) fn_(ctx_, level, message.c_str());
  }

  template <typename... Args>
  void Logf(pman_log_level level, const absl::FormatSpec<Args...>& format,
            const Args&... args) const {
    if (fn_ != nullptr) Log(level, absl::StrFormat(format, args...));
  }

 private:
  pman_log_fn fn_;
  void* ctx_;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_LOGGER_H_
