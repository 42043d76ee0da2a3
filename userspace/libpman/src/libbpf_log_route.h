// libbpf has one process-wide print callback; this routes its messages (the
// verifier log above all) to the log callback of the handle whose call is
// running on this thread.
#ifndef KESTREL_LIBPMAN_LIBBPF_LOG_ROUTE_H_
#define KESTREL_LIBPMAN_LIBBPF_LOG_ROUTE_H_

#include "logger.h"

namespace kestrel::pman {

// While alive, libbpf messages on this thread go to `logger`.
class ScopedLibbpfLogRoute {
 public:
  explicit ScopedLibbpfLogRoute(const Logger& logger);
  ~ScopedLibbpfLogRoute();
  ScopedLibbpfLogRoute(const ScopedLibbpfLogRoute&) = delete;
  ScopedLibbpfLogRoute& operator=(const ScopedLibbpfLogRoute&) = delete;

 private:
  const Logger* previous_;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_LIBBPF_LOG_ROUTE_H_
