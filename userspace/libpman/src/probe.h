// One loaded instance of the Kestrel probe and everything it owns: the BPF
// object (in either settings storage mode), its rings and their readers.
// The C ABI in libpman.cpp is a thin shell over this class.
#ifndef KESTREL_LIBPMAN_PROBE_H_
#define KESTREL_LIBPMAN_PROBE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filler_loader.h"
#include "internal/libpman_bench.h"  // PMAN_OPT_RINGBUF, pman_settings_costs
#include "libpman.h"
#include "logger.h"
#include "mpsc_rings.h"
#include "probe_object.h"
#include "program_stats.h"
#include "ring_layout.h"
#include "ring_merger.h"
#include "settings_control.h"

namespace kestrel::pman {

class PinnedMaps;

class Probe {
 public:
  static absl::StatusOr<std::unique_ptr<Probe>> Create(const pman_options& options);
  ~Probe();

  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  absl::Status Open();
  // Before Load: the fillers of these syscalls load with the probe.
  absl::Status PreloadFillers(const uint8_t* interesting, size_t n);
  absl::Status Load();
  absl::Status Attach();
  absl::Status Detach();
  // Detach, then wait until no program of this probe runs anywhere.
  absl::Status DetachAndSettle();
  // Attaches the sys_exit dispatcher while the interesting-syscall table
  // holds a syscall and detaches it while it holds none, so that a capture
  // with nothing to capture costs the machine's syscalls nothing: true when
  // it is attached after the call. Does nothing before Attach.
  absl::StatusOr<bool> FollowSyscallSet();

  absl::Status EnforceSyscallSet(const uint8_t* interesting, size_t n);
  absl::Status MarkSyscall(uint32_t id, bool interesting);

  absl::StatusOr<kestrel_capture_settings> GetSettings() const;
  absl::Status UpdateSettings(const kestrel_capture_settings& settings);

  absl::Status SetDropClass(uint32_t id, uint32_t drop_class);
  absl::Status GetSyscallTables(uint8_t* interesting, uint8_t* drop_classes, size_t n) const;
  absl::Status SetOmittedParams(uint32_t omitted);
  absl::StatusOr<uint32_t> OmittedParams() const;
  absl::StatusOr<uint64_t> Generation() const;
  absl::Status Pin(const char* dir);
  absl::Status LockSettings();
  absl::StatusOr<pman_settings_costs> MeasureSettingsCosts(uint32_t iterations);  // in bench file

  absl::Status GetStats(pman_stats* stats, kestrel_cpu_counters* per_cpu, size_t per_cpu_len);
  // Every program of the probe, loaded or not (pman_get_program_stats).
  absl::StatusOr<std::vector<ProgramLoadStats>> ProgramStats() const;

  absl::StatusOr<const kestrel_record_header*> ConsumeFirst(int16_t* ring_index);
  // The per-record fast path behind ConsumeFirst: NextRecord may be called
  // only while ReadyToConsume() holds.
  bool ReadyToConsume() const { return loaded_ && merger_.has_value(); }
  const kestrel_record_header* NextRecord(int16_t* ring_index) { return merger_->Next(ring_index); }
  // 1 when data is ready, 0 on timeout, -EINTR when a signal came first.
  absl::StatusOr<int> Wait(int timeout_ms);
  absl::Status GetRingBacklog(uint64_t* unread_bytes, uint64_t* ring_bytes) const;

  const Logger& logger() const { return logger_; }

 private:
  explicit Probe(const pman_options& options);
  absl::Status RequireLoaded(const char* what) const;
  // Every counter summed: it moves whenever a program of this probe runs.
  absl::StatusOr<uint64_t> CounterActivity();
  // Bytes of each BPF ring buffer in ring_fds_: a ring, or an MPSC ring's
  // doorbell.
  uint64_t RingBufferBytes() const;
  absl::Status CreateRings();
  // Sizes the object's maps and constants for layout_, then loads it.
  absl::Status LoadObject();
  absl::Status ConnectRings();
  // Loads the fillers the syscalls `ids` need and lack, before any of them
  // is made interesting.
  absl::Status LoadFillersFor(const std::vector<uint32_t>& ids);
  FillerLoadTarget FillerTarget() const;
  void Unload();

  pman_options options_;
  Logger logger_;
  std::unique_ptr<ProbeObject> object_;
  bool loaded_ = false;
  bool attached_ = false;  // between Attach and Detach
  RingLayout layout_;
  std::vector<int> ring_fds_;
  uint64_t ring_locked_bytes_ = 0;
  std::unique_ptr<MpscRings> mpsc_;    // when layout_.mpsc; before merger_, which reads it
  std::vector<RingReader> doorbells_;  // MPSC rings' wakeup rings
  std::optional<RingMerger> merger_;
  int epoll_fd_ = -1;
  std::optional<SettingsControl> control_;  // over the control block once loaded
  std::unique_ptr<PinnedMaps> pins_;
  std::vector<uint32_t> preload_ids_;           // syscalls whose fillers pman_load loads
  std::vector<ProgramLoadStats> load_stats_;    // what pman_load loaded
  std::vector<ProgramLoadStats> filler_stats_;  // fillers this handle loaded later
};

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PROBE_H_
