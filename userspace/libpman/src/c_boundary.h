// Turns C++ results into the C ABI's convention: 0 or a negative errno, with
// the failure described through the log callback, and no exception escaping.
#ifndef KESTREL_LIBPMAN_C_BOUNDARY_H_
#define KESTREL_LIBPMAN_C_BOUNDARY_H_

#include <cerrno>
#include <exception>
#include <new>
#include <string>

#include "absl/status/status.h"
#include "errno_status.h"
#include "logger.h"

namespace kestrel::pman {

inline int ReportStatus(const Logger& logger, const absl::Status& status) {
  if (status.ok()) return 0;
  logger.Log(PMAN_LOG_ERROR, std::string(status.message()));
  return -StatusToErrno(status);
}

// Runs `fn()` (returning absl::Status) and reports its result.
template <typename Fn>
int CallReporting(const Logger& logger, Fn&& fn) {
  try {
    return ReportStatus(logger, fn());
  } catch (const std::bad_alloc&) {
    logger.Log(PMAN_LOG_ERROR, "out of memory");
    return -ENOMEM;
  } catch (const std::exception& e) {
    logger.Log(PMAN_LOG_ERROR, e.what());
    return -EIO;
  }
}

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_C_BOUNDARY_H_
