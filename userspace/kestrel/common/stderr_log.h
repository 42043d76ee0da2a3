// The libpman log callback every CLI command uses: warnings and errors go to
// stderr behind the command's name.
#ifndef KESTREL_CLI_STDERR_LOG_H_
#define KESTREL_CLI_STDERR_LOG_H_

#include <cstdio>
#include <string>

#include "libpman.h"

namespace kestrel::cli {

// A pman log callback; `ctx` is the prefix, a string literal such as
// "kestrel dump" (pass it with CommandLogContext).
inline void LogToStderr(void* ctx, pman_log_level level, const char* message) {
  if (level >= PMAN_LOG_WARNING) {
    std::fprintf(stderr, "%s: %s\n", static_cast<const char*>(ctx), message);
  }
}

// One line of `kestrel run`'s progress on stderr.
inline void SayRun(const std::string& line) {
  std::fprintf(stderr, "kestrel run: %s\n", line.c_str());
}

// The log_ctx for LogToStderr: libpman's ABI takes a mutable pointer but
// never writes through it.
inline void* CommandLogContext(const char* command) { return const_cast<char*>(command); }

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_STDERR_LOG_H_
