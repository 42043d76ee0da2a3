// Notices changes to the running probe that `kestrel run` did not make:
// its settings, syscall table or drop classes written by another process,
// through the pinned control block (`kestrel settings`, `kestrel
// syscalls`, any libpman_control user) or straight into the map (`bpftool
// map update`). An attacker who retunes the sensor to blind it is the
// case this is for; every such change raises an internal alert naming it.
#ifndef KESTREL_CLI_RUN_TAMPER_WATCH_H_
#define KESTREL_CLI_RUN_TAMPER_WATCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/alerts/alert.h"
#include "shared/capture_settings.h"

struct pman_handle;

namespace kestrel::cli {

// What a probe is set to do.
struct ProbeTuning {
  kestrel_capture_settings settings{};
  std::vector<uint8_t> interesting;   // by syscall id
  std::vector<uint8_t> drop_classes;  // by syscall id
  uint32_t omitted_params = 0;        // KESTREL_OMIT_* bits

  // Reads it from the probe behind `handle`; nullopt if it cannot.
  static std::optional<ProbeTuning> Read(pman_handle* handle);
  // Reads it into `*this`, reusing its buffers; false if it cannot.
  bool ReadFrom(pman_handle* handle);

  // Byte for byte, padding included: what the probe reads is bytes.
  bool SameAs(const ProbeTuning& other) const;
};

// "none", "open path": the KESTREL_OMIT_* bits in `omitted`, by name.
std::string OmittedParamsText(uint32_t omitted);

// What changed from `was` to `now`, one phrase each, in settings-table
// then syscall-id order: "snaplen 0 -> 4096", "syscalls off: getppid",
// "syscalls on: read", "drop class sampled -> never: getppid",
// "omitted parameters none -> open path". Empty when
// nothing did.
std::vector<std::string> DescribeTuningChanges(const ProbeTuning& was, const ProbeTuning& now);

class TamperWatch {
 public:
  // `handle` must outlive the watch.
  explicit TamperWatch(pman_handle* handle) : handle_(handle) { Expect(); }

  // The probe as it is now is what the engine wants: called after each
  // change the engine makes itself.
  void Expect();

  // When the probe differs from what was expected, returns the internal
  // alert naming the change (its time `wall_ns`, ns since the epoch), and
  // expects the changed state from then on: one change, one alert.
  std::optional<engine::alerts::Alert> Check(uint64_t wall_ns);

  uint64_t changes_seen() const { return changes_seen_; }

 private:
  pman_handle* handle_;
  std::optional<ProbeTuning> expected_;
  // Checked once per consumer batch: read into the same buffers each time,
  // and described only when something differs.
  ProbeTuning now_;
  uint64_t changes_seen_ = 0;
};

// The internal alerts' rule name.
inline constexpr char kTamperRule[] = "Kestrel internal: probe changed by another process";

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RUN_TAMPER_WATCH_H_
