#include "recorder_loader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_format.h"
#include "boot_clock.h"
#include "custom_fillers.h"
#include "embedded_object.h"
#include "errno_status.h"
#include "filler_loader.h"
#include "ia32_syscalls.h"
#include "kernel_features.h"
#include "kestrel_recorder_probe.skel.h"
#include "libbpf_log_route.h"
#include "recorder_inspect.h"
#include "recorder_layout.h"
#include "recorder_pins.h"
#include "settings_store.h"
#include "shared/recorder_format.h"
#include "shared/syscall_table_x86_64.h"
#include "syscall_fillers.h"

namespace kestrel::pman {
namespace {

struct SkeletonCloser {
  void operator()(kestrel_recorder_probe* skel) const { kestrel_recorder_probe__destroy(skel); }
};
using SkeletonPtr = std::unique_ptr<kestrel_recorder_probe, SkeletonCloser>;

struct LinkCloser {
  void operator()(bpf_link* link) const { bpf_link__destroy(link); }
};
using LinkPtr = std::unique_ptr<bpf_link, LinkCloser>;

struct RecorderLinks {
  LinkPtr sys_exit;
  LinkPtr fork;  // the caller's clone records are written at fork time
  LinkPtr exit;
};

absl::Status Sized(kestrel_recorder_probe* skel, const RecorderLayout& layout) {
  // The ring-buffer table belongs to the other sink; this variant never
  // touches it, so it is not created at all.
  if (bpf_map__set_autocreate(skel->maps.ringbuf_maps, false) != 0 ||
      bpf_map__set_max_entries(skel->maps.scratch_maps,
                               static_cast<uint32_t>(libbpf_num_possible_cpus())) != 0 ||
      bpf_map__set_max_entries(skel->maps.recorder_slots,
                               static_cast<uint32_t>(layout.TotalSlots())) != 0 ||
      bpf_map__set_max_entries(skel->maps.recorder_heads, layout.n_rings) != 0) {
    return ErrnoStatus(errno, "sizing the recorder maps");
  }
  skel->rodata->recorder_slot_mask = layout.slots_per_ring - 1;
  skel->rodata->recorder_ring_mask = layout.n_rings - 1;
  skel->rodata->recorder_batch_shift = layout.batch_shift;
  return absl::OkStatus();
}

absl::Status FillHeadsAndInfo(kestrel_recorder_probe* skel, const RecorderLayout& layout,
                              uint64_t cgroup_id) {
  const int heads = bpf_map__fd(skel->maps.recorder_heads);
  for (uint32_t ring = 0; ring < layout.n_rings; ++ring) {
    kestrel_recorder_head head{};
    head.base = ring * layout.slots_per_ring;
    if (bpf_map_update_elem(heads, &ring, &head, BPF_ANY) != 0) {
      return ErrnoStatus(errno, absl::StrFormat("setting up the head of ring %u", ring));
    }
  }
  kestrel_recorder_info info{};
  info.magic = KESTREL_RECORDER_MAGIC;
  info.version = KESTREL_RECORDER_VERSION;
  info.slot_bytes = KESTREL_RECORDER_SLOT_BYTES;
  info.n_rings = layout.n_rings;
  info.slots_per_ring = layout.slots_per_ring;
  info.boot_time_ns = BootTimeWallNs();
  info.cgroup_id = cgroup_id;
  info.started_boot_ns = ClockNs(CLOCK_BOOTTIME);
  const uint32_t zero = 0;
  if (bpf_map_update_elem(bpf_map__fd(skel->maps.recorder_info), &zero, &info, BPF_ANY) != 0) {
    return ErrnoStatus(errno, "writing the recorder info");
  }
  return absl::OkStatus();
}

void Configure(kestrel_recorder_probe* skel, const pman_recorder_options& options) {
  kestrel_capture_settings settings{};
  settings.boot_time_ns = BootTimeWallNs();
  // Nobody to exclude: the starting process is about to exit, and its pid
  // may later belong to anyone.
  settings.own_tgid = 0;
  settings.target_tgid = options.target_tgid;
  PublishSettings(&skel->bss->kestrel_control_bss.settings_store, settings);
  for (size_t id = 0; id < KESTREL_SYSCALL_TABLE_SIZE; ++id) {
    const bool on = options.interesting == nullptr ||
                    (id < options.n_interesting && options.interesting[id] != 0);
    skel->bss->kestrel_control_bss.interesting_syscalls[id] = on ? 1 : 0;
  }
}

// Test hook: the e2e tests kill a start halfway through, after the pin this
// names (e.g. "info"), to check what a half-made recorder looks like to
// every command. Unset in any real use.
constexpr char kStallAfterPinEnv[] = "KESTREL_TEST_RECORDER_START_STALL_AFTER";

void StallIfAskedAfter(const std::string& path, const Logger& logger) {
  const char* stall = getenv(kStallAfterPinEnv);
  if (stall == nullptr || path.substr(path.rfind('/') + 1) != stall) return;
  logger.Logf(PMAN_LOG_WARNING, "%s set: start stalls after pinning %s", kStallAfterPinEnv, path);
  for (;;) pause();
}

absl::Status Pin(bpf_map* map, const std::string& path, const Logger& logger) {
  if (const int err = bpf_map__pin(map, path.c_str()); err != 0) {
    return ErrnoStatus(-err, absl::StrFormat("pinning %s", path));
  }
  if (chmod(path.c_str(), 0600) != 0) return ErrnoStatus(errno, absl::StrFormat("chmod %s", path));
  StallIfAskedAfter(path, logger);
  return absl::OkStatus();
}

absl::Status PinLink(bpf_link* link, const std::string& path, const Logger& logger) {
  if (const int err = bpf_link__pin(link, path.c_str()); err != 0) {
    return ErrnoStatus(-err, absl::StrFormat("pinning %s", path));
  }
  if (chmod(path.c_str(), 0600) != 0) return ErrnoStatus(errno, absl::StrFormat("chmod %s", path));
  StallIfAskedAfter(path, logger);
  return absl::OkStatus();
}

// The scheduler hooks' links go before the sys_exit one: once that is pinned
// the recorder is complete.
absl::Status PinAll(kestrel_recorder_probe* skel, const RecorderLinks& links,
                    const RecorderPins& pins, const Logger& logger) {
  const std::pair<bpf_map*, const std::string*> maps[] = {
      {skel->maps.recorder_slots, &pins.slots},   {skel->maps.recorder_heads, &pins.heads},
      {skel->maps.recorder_info, &pins.info},     {skel->maps.cpu_counters, &pins.counters},
      {skel->maps.custom_fillers, &pins.fillers}, {skel->maps.bss, &pins.control}};
  for (const auto& [map, path] : maps) {
    if (absl::Status s = Pin(map, *path, logger); !s.ok()) return s;
  }
  if (absl::Status s = PinLink(links.fork.get(), pins.fork_link, logger); !s.ok()) return s;
  if (absl::Status s = PinLink(links.exit.get(), pins.exit_link, logger); !s.ok()) return s;
  return PinLink(links.sys_exit.get(), pins.link, logger);
}

absl::StatusOr<RecorderLayout> PlanFor(const pman_recorder_options& options) {
  const int n_cpus = libbpf_num_possible_cpus();
  if (n_cpus <= 0) return ErrnoStatus(-n_cpus, "counting the possible CPUs");
  return PlanRecorderLayout(options.size_bytes, options.per_cpu, static_cast<uint32_t>(n_cpus));
}

absl::Status LoadAttachPin(const pman_recorder_options& options, const RecorderLayout& layout,
                           const RecorderPins& pins, const Logger& logger) {
  SkeletonPtr skel(
      OpenEmbeddedSkeleton(kestrel_recorder_probe__open_opts, kestrel_recorder_probe__elf_bytes));
  if (!skel) return ErrnoStatus(errno, "opening the embedded recorder BPF object");
  if (absl::Status s = Sized(skel.get(), layout); !s.ok()) return s;
  // Every filler: `kestrel syscalls` may enable any syscall on a running
  // recorder, and it pins no maps a controller could load fillers with.
  if (absl::Status s = PrepareFillers(skel->obj, std::nullopt); !s.ok()) return s;
  skel->rodata->recorder_cgroup_id = options.cgroup_id;
  skel->rodata->ia32_syscalls_possible = KernelRunsIa32Syscalls();
  if (const int err = kestrel_recorder_probe__load(skel.get()); err != 0) {
    if (absl::Status features = CheckProbeKernelFeatures(); !features.ok()) return features;
    return ErrnoStatus(-err, "loading the recorder probe (see the libbpf log above)");
  }
  if (absl::Status s = FillHeadsAndInfo(skel.get(), layout, options.cgroup_id); !s.ok()) return s;
  if (absl::Status s = RegisterCustomFillers(skel->obj, bpf_map__fd(skel->maps.custom_fillers));
      !s.ok()) {
    return s;
  }
  Configure(skel.get(), options);
  RecorderLinks links;
  links.fork.reset(bpf_program__attach(skel->progs.kestrel_sched_process_fork));
  if (!links.fork) return ErrnoStatus(errno, "attaching the recorder to sched_process_fork");
  links.exit.reset(bpf_program__attach(skel->progs.kestrel_sched_process_exit));
  if (!links.exit) return ErrnoStatus(errno, "attaching the recorder to sched_process_exit");
  links.sys_exit.reset(bpf_program__attach(skel->progs.kestrel_sys_exit));
  if (!links.sys_exit) return ErrnoStatus(errno, "attaching the recorder probe to tp_btf/sys_exit");
  if (absl::Status s = PinAll(skel.get(), links, pins, logger); !s.ok()) return s;
  // From here the pins hold the probe. Destroying our bpf_link only closes
  // our fd to it (the kernel link lives on through its pin); keeping the fd
  // instead would keep the probe attached after a stop in this process.
  logger.Logf(PMAN_LOG_INFO, "recorder %s started: %u ring(s) of %u slots (%u bytes)", pins.dir,
              layout.n_rings, layout.slots_per_ring,
              layout.TotalSlots() * KESTREL_RECORDER_SLOT_BYTES);
  return absl::OkStatus();
}

// How long a start or stop waits for another one holding the directory.
constexpr int kDirLockTimeoutMs = 10000;

// With the directory locked: refuses a running recorder or anything not
// ours, and clears the remains of an interrupted start so it can be reused.
absl::Status PrepareDirectory(const RecorderPins& pins, const Logger& logger) {
  absl::StatusOr<RecorderInspection> found = InspectRecorder(pins);
  if (!found.ok()) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s; not starting a recorder there", found.status().message()));
  }
  if (found->state == RecorderState::kComplete) {
    return absl::AlreadyExistsError(absl::StrFormat(
        "a recorder is already pinned at %s (stop it first, or pick another --name)", pins.dir));
  }
  if (found->state == RecorderState::kAbsent) {
    return absl::UnavailableError(
        absl::StrFormat("%s was removed while this start was creating it; try again", pins.dir));
  }
  if (!found->present.empty()) {
    if (absl::Status s = RemoveRecorderPins(pins, found->present, false); !s.ok()) return s;
    logger.Logf(PMAN_LOG_WARNING,
                "removed the remains of an interrupted recorder start at %s (%zu pin(s))", pins.dir,
                found->present.size());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status StartRecorder(const pman_recorder_options& options, const Logger& logger) {
  absl::StatusOr<RecorderPins> pins = RecorderPinsFor(options);
  if (!pins.ok()) return pins.status();
  // Everything that can be refused without the kernel is, before bpffs is
  // touched.
  absl::StatusOr<RecorderLayout> layout = PlanFor(options);
  if (!layout.ok()) return layout.status();
  if (absl::Status s = EnsurePinDirectory(*pins); !s.ok()) return s;
  absl::StatusOr<RecorderDirLock> lock = RecorderDirLock::Take(*pins, kDirLockTimeoutMs);
  if (!lock.ok()) return lock.status();
  if (absl::Status s = PrepareDirectory(*pins, logger); !s.ok()) return s;
  ScopedLibbpfLogRoute route(logger);
  absl::Status status = LoadAttachPin(options, *layout, *pins, logger);
  if (!status.ok()) {
    // Everything in the directory is ours: PrepareDirectory found it empty
    // and we hold its lock.
    if (absl::Status undo = RemoveRecorderPins(*pins, pins->Files(), true); !undo.ok()) {
      logger.Log(PMAN_LOG_WARNING, std::string(undo.message()));
    }
  }
  return status;
}

absl::StatusOr<RecorderState> StopRecorder(const pman_recorder_options& options,
                                           const Logger& logger) {
  absl::StatusOr<RecorderPins> pins = RecorderPinsFor(options);
  if (!pins.ok()) return pins.status();
  absl::StatusOr<RecorderDirLock> lock = RecorderDirLock::Take(*pins, kDirLockTimeoutMs);
  if (!lock.ok()) return lock.status();
  absl::StatusOr<RecorderInspection> found = InspectRecorder(*pins);
  if (!found.ok()) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s; nothing was removed", found.status().message()));
  }
  if (found->state == RecorderState::kAbsent) {
    return absl::NotFoundError(absl::StrFormat("no recorder is pinned at %s", pins->dir));
  }
  if (absl::Status s = RemoveRecorderPins(*pins, found->present, true); !s.ok()) return s;
  logger.Logf(PMAN_LOG_INFO, "recorder %s %s", pins->dir,
              found->state == RecorderState::kComplete ? "stopped" : "(half-made) removed");
  return found->state;
}

}  // namespace kestrel::pman
