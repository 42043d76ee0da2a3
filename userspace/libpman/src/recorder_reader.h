// A running flight recorder opened from its pins: the rings mapped
// read-only, so reading never disturbs the probe that keeps writing.
#ifndef KESTREL_LIBPMAN_RECORDER_READER_H_
#define KESTREL_LIBPMAN_RECORDER_READER_H_

#include <cstddef>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libpman_recorder.h"
#include "logger.h"
#include "recorder_scan.h"
#include "shared/recorder_format.h"

namespace kestrel::pman {

class RecorderReader {
 public:
  static absl::StatusOr<std::unique_ptr<RecorderReader>> Open(const pman_recorder_options& options);
  ~RecorderReader();

  RecorderReader(const RecorderReader&) = delete;
  RecorderReader& operator=(const RecorderReader&) = delete;

  absl::StatusOr<pman_recorder_status> Status() const;

  // Every committed record of every ring at this moment.
  RecorderScan Scan() const;

  const Logger& logger() const { return logger_; }

 private:
  explicit RecorderReader(const Logger& logger) : logger_(logger) {}

  Logger logger_;
  kestrel_recorder_info info_{};
  int slots_fd_ = -1;
  int heads_fd_ = -1;
  int counters_fd_ = -1;
  const kestrel_recorder_slot* slots_ = nullptr;
  size_t slots_bytes_ = 0;
  const kestrel_recorder_head* heads_ = nullptr;
  size_t heads_bytes_ = 0;
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_RECORDER_READER_H_
