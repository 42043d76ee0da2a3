// Notices changes to the running probe that `kestrel run` did not make:
// its settings, syscall table or drop classes written by another process,
// through the pinned control block (`kestrel settings`, `kestrel
// syscalls`, any libpman_control user) or straight into the map (`bpftool
// map update`). An attacker who retunes the sensor to blind it is the
// case this is for; every such change raises an internal alert naming it.
#ifndef KESTREL_AGENT_CONTROL_TAMPER_WATCH_H_
#define KESTREL_AGENT_CONTROL_TAMPER_WATCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/alerts/alert.h"
#include "shared/capture_settings.h"

struct pman_handle;

namespace kestrel::agent {

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

// What a change of the engine's own touched, so that only that is taken
// from the probe afterwards: anything else that changed meanwhile (another
// process, during a reload) is still a change to alert on.
struct OwnChange {
  std::vector<uint32_t> syscalls;  // ids whose interesting flag it set
  bool settings = false;
  bool drop_classes = false;
  bool omitted_params = false;
};

class TamperWatch {
 public:
  // `handle` must outlive the watch. With `repair`, a change from outside
  // is put back; without (--lock-settings, or outside changes allowed in
  // the config), it is only reported and kept.
  TamperWatch(pman_handle* handle, bool repair) : handle_(handle), repair_(repair) { Expect(); }

  // The probe as it is now is what the engine wants: called after each
  // change the engine makes itself.
  void Expect();
  // Takes from the probe only what `own` touched.
  void ExpectOwn(const OwnChange& own);

  // When the probe differs from what was expected: the internal alert
  // naming the change (its time `wall_ns`, ns since the epoch), then,
  // with repair, the probe put back and a second alert saying so;
  // without, the changed state expected from then on. One change, one
  // alert (two when put back).
  std::vector<engine::alerts::Alert> Check(uint64_t wall_ns);

  uint64_t changes_seen() const { return changes_seen_; }
  uint64_t repairs() const { return repairs_; }

 private:
  // Writes what differs between the probe (`now_`) and `expected_` back;
  // true when the probe then reads as expected.
  bool PutBack();

  pman_handle* handle_;
  bool repair_;
  std::optional<ProbeTuning> expected_;
  // Checked once per consumer batch: read into the same buffers each time,
  // and described only when something differs.
  ProbeTuning now_;
  uint64_t changes_seen_ = 0;
  uint64_t repairs_ = 0;
};

// The internal alerts' rule name.
inline constexpr char kTamperRule[] = "Kestrel internal: probe changed by another process";

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONTROL_TAMPER_WATCH_H_
