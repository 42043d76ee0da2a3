#include "libbpf_log_route.h"

#include <bpf/libbpf.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace kestrel::pman {
namespace {

thread_local const Logger* current_logger = nullptr;

int RouteLibbpfMessage(libbpf_print_level level, const char* format, va_list args) {
  if (current_logger == nullptr) return 0;
  // Verifier logs run to megabytes: size the buffer to the message.
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (n <= 0) return n;
  std::string message(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(message.data(), message.size(), format, args);
  message.resize(static_cast<size_t>(n));
  absl::StripTrailingAsciiWhitespace(&message);
  pman_log_level ours = PMAN_LOG_DEBUG;
  if (level == LIBBPF_WARN) ours = PMAN_LOG_WARNING;
  if (level == LIBBPF_INFO) ours = PMAN_LOG_INFO;
  // Most of libbpf's messages name it already.
  current_logger->Log(ours, absl::StartsWith(message, "libbpf: ") ? message : "libbpf: " + message);
  return n;
}

}  // namespace

ScopedLibbpfLogRoute::ScopedLibbpfLogRoute(const Logger& logger) : previous_(current_logger) {
  static std::once_flag installed;
  std::call_once(installed, [] { libbpf_set_print(RouteLibbpfMessage); });
  current_logger = &logger;
}

ScopedLibbpfLogRoute::~ScopedLibbpfLogRoute() { current_logger = previous_; }

}  // namespace kestrel::pman
