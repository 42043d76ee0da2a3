// The flight recorder's C ABI: argument checks, then the C++ in
// recorder_loader / recorder_reader, every failure a negative errno plus a
// message on the log callback. No exception crosses this boundary.
#include "libpman_recorder.h"

#include <cerrno>
#include <memory>

#include "absl/status/status.h"
#include "c_abi_guard.h"
#include "recorder_loader.h"
#include "recorder_pins.h"
#include "recorder_reader.h"

struct pman_recorder {
  std::unique_ptr<kestrel::pman::RecorderReader> reader;
};

namespace {

using kestrel::pman::Logger;
using kestrel::pman::RecorderReader;

bool ValidOptions(const pman_recorder_options* opts) {
  return opts != nullptr && opts->struct_size >= sizeof(pman_recorder_options);
}

}  // namespace

extern "C" {

void pman_recorder_default_options(struct pman_recorder_options* opts) {
  if (opts == nullptr) return;
  *opts = pman_recorder_options{};
  opts->struct_size = sizeof(*opts);
  opts->pin_root = PMAN_RECORDER_DEFAULT_PIN_ROOT;
  opts->name = PMAN_RECORDER_DEFAULT_NAME;
  opts->size_bytes = PMAN_RECORDER_DEFAULT_BYTES;
}

bool pman_recorder_name_is_valid(const char* name) {
  return name != nullptr && kestrel::pman::ValidRecorderName(name);
}

int pman_recorder_start(const struct pman_recorder_options* opts) {
  if (!ValidOptions(opts)) return -EINVAL;
  const Logger logger(opts->log_fn, opts->log_ctx);
  return kestrel::pman::GuardedCall(logger,
                                    [&] { return kestrel::pman::StartRecorder(*opts, logger); });
}

int pman_recorder_stop(const struct pman_recorder_options* opts) {
  if (!ValidOptions(opts)) return -EINVAL;
  const Logger logger(opts->log_fn, opts->log_ctx);
  bool half_made = false;
  const int rc = kestrel::pman::GuardedCall(logger, [&]() -> absl::Status {
    absl::StatusOr<kestrel::pman::RecorderState> removed =
        kestrel::pman::StopRecorder(*opts, logger);
    if (!removed.ok()) return removed.status();
    half_made = *removed == kestrel::pman::RecorderState::kHalfMade;
    return absl::OkStatus();
  });
  return rc != 0 ? rc : (half_made ? 1 : 0);
}

int pman_recorder_open(const struct pman_recorder_options* opts, struct pman_recorder** out) {
  if (!ValidOptions(opts) || out == nullptr) return -EINVAL;
  *out = nullptr;
  const Logger logger(opts->log_fn, opts->log_ctx);
  return kestrel::pman::GuardedCall(logger, [&]() -> absl::Status {
    absl::StatusOr<std::unique_ptr<RecorderReader>> reader = RecorderReader::Open(*opts);
    if (!reader.ok()) return reader.status();
    *out = new pman_recorder{*std::move(reader)};
    return absl::OkStatus();
  });
}

int pman_recorder_get_status(struct pman_recorder* r, struct pman_recorder_status* status) {
  if (r == nullptr || status == nullptr) return -EINVAL;
  return kestrel::pman::GuardedCall(r->reader->logger(), [&]() -> absl::Status {
    absl::StatusOr<pman_recorder_status> s = r->reader->Status();
    if (!s.ok()) return s.status();
    *status = *s;
    return absl::OkStatus();
  });
}

int pman_recorder_read(struct pman_recorder* r, uint64_t last, uint64_t since_boot_ns,
                       pman_recorder_record_fn fn, void* ctx,
                       struct pman_recorder_read_stats* stats) {
  if (r == nullptr || fn == nullptr) return -EINVAL;
  int stopped = 0;
  const int rc = kestrel::pman::GuardedCall(r->reader->logger(), [&]() -> absl::Status {
    const kestrel::pman::RecorderScan scan = r->reader->Scan();
    const std::vector<kestrel::pman::ScannedRecord> picked =
        kestrel::pman::SelectNewest(scan, last, since_boot_ns);
    if (stats != nullptr) {
      *stats = scan.stats;
      stats->records = 0;
    }
    for (const kestrel::pman::ScannedRecord& rec : picked) {
      stopped =
          fn(ctx, reinterpret_cast<const kestrel_record_header*>(scan.bytes.data() + rec.offset));
      if (stopped != 0) break;
      if (stats != nullptr) ++stats->records;
    }
    return absl::OkStatus();
  });
  return rc != 0 ? rc : stopped;
}

void pman_recorder_close(struct pman_recorder* r) { delete r; }

}  // extern "C"
