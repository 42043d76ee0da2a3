#include "probe.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "boot_clock.h"
#include "counter_sum.h"
#include "custom_fillers.h"
#include "errno_status.h"
#include "filler_loader.h"
#include "ia32_syscalls.h"
#include "kernel_features.h"
#include "libbpf_log_route.h"
#include "map_freeze.h"
#include "map_memlock.h"
#include "mpsc_rings.h"
#include "page_round.h"
#include "pin_dir.h"
#include "program_settle.h"
#include "settings_rules.h"
#include "settings_store.h"
#include "shared/syscall_table_x86_64.h"
#include "syscall_fillers.h"

namespace kestrel::pman {
namespace {

// Loading needs CAP_BPF and CAP_PERFMON; say so rather than just "EPERM".
absl::Status LoadError(int error) {
  if (error == EPERM || error == EACCES) {
    return ErrnoStatus(error,
                       "loading the probe was refused: it needs CAP_BPF and CAP_PERFMON "
                       "(or root)");
  }
  if (absl::Status features = CheckProbeKernelFeatures(); !features.ok()) return features;
  return ErrnoStatus(error, "loading the probe (see the libbpf log above)");
}

// The mode measured as the better one (README, "Settings storage modes").
constexpr kestrel_settings_storage kDefaultStorage = KESTREL_STORAGE_BSS;

kestrel_settings_storage SettingsStorageOf(const pman_options& options) {
  return options.settings_storage == PMAN_SETTINGS_STORAGE_DEFAULT
             ? kDefaultStorage
             : static_cast<kestrel_settings_storage>(options.settings_storage);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Probe>> Probe::Create(const pman_options& options) {
  if (options.struct_size < sizeof(pman_options)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "pman_options.struct_size is %u, expected at least %u: call pman_default_options()",
        options.struct_size, sizeof(pman_options)));
  }
  if (options.settings_storage != PMAN_SETTINGS_STORAGE_DEFAULT &&
      options.settings_storage != PMAN_SETTINGS_STORAGE_BSS &&
      options.settings_storage != PMAN_SETTINGS_STORAGE_ARRAY) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pman_options.settings_storage is %u: use a PMAN_SETTINGS_STORAGE_* value",
                        options.settings_storage));
  }
  if (absl::StatusOr<RingLayout> check = PlanRingLayout(1, 0, options.buffer_bytes); !check.ok()) {
    return check.status();
  }
  return std::unique_ptr<Probe>(new Probe(options));
}

Probe::Probe(const pman_options& options)
    : options_(options), logger_(options.log_fn, options.log_ctx) {}

Probe::~Probe() { Unload(); }

absl::Status Probe::Open() {
  if (object_ != nullptr) return absl::FailedPreconditionError("the probe is already open");
  ScopedLibbpfLogRoute route(logger_);
  absl::StatusOr<std::unique_ptr<ProbeObject>> object =
      ProbeObject::Open(SettingsStorageOf(options_));
  if (!object.ok()) return object.status();
  object_ = *std::move(object);
  return absl::OkStatus();
}

uint64_t Probe::RingBufferBytes() const {
  // MPSC rings hold the records; each gets a one-page BPF ring buffer that
  // only carries its wakeups (ring_writer.h).
  return layout_.mpsc ? PageBytes() : layout_.ring_bytes;
}

absl::Status Probe::CreateRings() {
  const uint64_t bytes = RingBufferBytes();
  for (uint32_t i = 0; i < layout_.n_rings; ++i) {
    const int fd =
        bpf_map_create(BPF_MAP_TYPE_RINGBUF, layout_.mpsc ? "kestrel_bell" : "kestrel_ring", 0, 0,
                       static_cast<uint32_t>(bytes), nullptr);
    if (fd < 0) {
      return ErrnoStatus(errno, absl::StrFormat("creating ring %u of %u bytes", i, bytes));
    }
    ring_fds_.push_back(fd);
  }
  return absl::OkStatus();
}

absl::Status Probe::ConnectRings() {
  const int outer = bpf_map__fd(object_->ring_maps());
  for (uint32_t cpu = 0; cpu < layout_.n_cpus; ++cpu) {
    if (layout_.RingOfCpu(cpu) == RingLayout::kNoRing) continue;
    const int ring_fd = ring_fds_[layout_.RingOfCpu(cpu)];
    if (bpf_map_update_elem(outer, &cpu, &ring_fd, BPF_ANY) != 0) {
      return ErrnoStatus(errno, absl::StrFormat("mapping CPU %u to its ring", cpu));
    }
  }
  std::vector<RingReader> readers;
  if (mpsc_) {
    if (absl::Status s = mpsc_->Connect(*object_); !s.ok()) return s;
    ring_locked_bytes_ += mpsc_->locked_bytes();
    for (uint32_t i = 0; i < layout_.n_rings; ++i) readers.push_back(mpsc_->Reader(i));
  }
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) return ErrnoStatus(errno, "creating the epoll set for the rings");
  for (size_t i = 0; i < ring_fds_.size(); ++i) {
    absl::StatusOr<RingReader> reader = RingReader::Map(ring_fds_[i], RingBufferBytes());
    if (!reader.ok()) return reader.status();
    absl::StatusOr<uint64_t> memlock = MapMemlockBytes(ring_fds_[i]);
    if (!memlock.ok()) return memlock.status();
    ring_locked_bytes_ += *memlock;
    (layout_.mpsc ? doorbells_ : readers).push_back(*std::move(reader));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = static_cast<uint32_t>(i);
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, ring_fds_[i], &ev) != 0) {
      return ErrnoStatus(errno, "adding a ring to the epoll set");
    }
  }
  merger_.emplace(std::move(readers));
  return absl::OkStatus();
}

absl::Status Probe::LoadObject() {
  bpf_map__set_max_entries(object_->ring_maps(), layout_.n_cpus);
  bpf_map__set_max_entries(object_->scratch_maps(), layout_.n_cpus);
  // Lazily (the default), no filler now: each comes with the first syscall
  // that needs it (LoadFillersFor).
  if (absl::Status s = PrepareFillers(object_->object(),
                                      options_.flags & PMAN_OPT_LOAD_ALL_FILLERS
                                          ? std::nullopt
                                          : std::optional(FillerSlotsOfSyscalls(preload_ids_)));
      !s.ok()) {
    return s;
  }
  bpf_map__set_inner_map_fd(object_->ring_maps(), ring_fds_[0]);
  // A quarter of a ring is enough backlog to be worth a wakeup and leaves
  // the consumer three quarters of the ring to catch up in.
  object_->SetRingWakeupThreshold(layout_.ring_bytes / 4);
  object_->SetIa32SyscallsPossible(KernelRunsIa32Syscalls());
  if (layout_.mpsc) {
    absl::StatusOr<std::unique_ptr<MpscRings>> mpsc = MpscRings::Configure(*object_, layout_);
    if (!mpsc.ok()) return mpsc.status();
    mpsc_ = *std::move(mpsc);
  }
  VerifierStatsLogs logs(object_->object());
  if (const int err = object_->Load(); err != 0) return LoadError(-err);
  load_stats_ = logs.Collect();
  return absl::OkStatus();
}

absl::Status Probe::PreloadFillers(const uint8_t* interesting, size_t n) {
  if (loaded_) return absl::FailedPreconditionError("pman_preload_fillers after pman_load");
  if ((interesting == nullptr && n != 0) || n > KESTREL_SYSCALL_TABLE_SIZE) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "pman_preload_fillers: %zu entries, the table has %d", n, KESTREL_SYSCALL_TABLE_SIZE));
  }
  preload_ids_ = SyscallIdsOf(interesting, n);
  return absl::OkStatus();
}

absl::Status Probe::Load() {
  if (object_ == nullptr) return absl::FailedPreconditionError("pman_load before pman_open");
  if (loaded_) return absl::FailedPreconditionError("the probe is already loaded");
  ScopedLibbpfLogRoute route(logger_);

  const int n_cpus = libbpf_num_possible_cpus();
  if (n_cpus <= 0) return ErrnoStatus(-n_cpus, "counting the possible CPUs");
  std::optional<std::vector<bool>> online;
  if (options_.flags & PMAN_OPT_ONLY_ONLINE_CPUS) {
    absl::StatusOr<std::vector<bool>> read = ReadOnlineCpus(n_cpus);
    if (!read.ok()) return read.status();
    online = *std::move(read);
  }
  absl::StatusOr<RingLayout> layout =
      PlanRingLayout(n_cpus, options_.cpus_per_buffer, options_.buffer_bytes,
                     online ? &*online : nullptr, options_.flags & PMAN_OPT_RINGBUF);
  if (!layout.ok()) return layout.status();
  layout_ = *layout;

  absl::Status status = CreateRings();
  if (status.ok()) status = LoadObject();
  if (status.ok()) status = ConnectRings();
  if (status.ok()) {
    status = RegisterCustomFillers(object_->object(), bpf_map__fd(object_->custom_fillers()));
  }
  if (!status.ok()) {
    Unload();
    return status;
  }
  loaded_ = true;

  kestrel_capture_settings settings = DefaultSettings();
  settings.boot_time_ns = BootTimeWallNs();
  settings.own_tgid = static_cast<uint32_t>(getpid());
  control_.emplace(object_->control_block(), -1);
  if (absl::Status s = control_->UpdateSettings(settings); !s.ok()) return s;
  logger_.Logf(PMAN_LOG_INFO, "probe loaded: %u %s of %u bytes for %u of %u CPUs, settings in %s",
               layout_.n_rings, layout_.mpsc ? "MPSC ring(s)" : "BPF ring buffer(s)",
               layout_.ring_bytes, layout_.CpusWithRing(), layout_.n_cpus,
               StorageName(object_->storage()));
  return absl::OkStatus();
}

absl::Status Probe::Attach() {
  if (absl::Status s = RequireLoaded("pman_attach"); !s.ok()) return s;
  ScopedLibbpfLogRoute route(logger_);
  if (const int err = object_->Attach(); err != 0) {
    object_->Detach();
    return ErrnoStatus(-err, "attaching the probe to tp_btf/sys_exit");
  }
  attached_ = true;
  return absl::OkStatus();
}

absl::Status Probe::Detach() {
  if (absl::Status s = RequireLoaded("pman_detach"); !s.ok()) return s;
  object_->Detach();
  attached_ = false;
  return absl::OkStatus();
}

absl::StatusOr<bool> Probe::FollowSyscallSet() {
  if (absl::Status s = RequireLoaded("pman_follow_syscall_set"); !s.ok()) return s;
  if (!attached_) return false;
  // Read from the mapped block: another process may have changed it
  // through the pin.
  const volatile uint8_t* table = object_->control_block()->interesting_syscalls;
  bool any = false;
  for (uint32_t id = 0; id < KESTREL_SYSCALL_TABLE_SIZE && !any; ++id) any = table[id] != 0;
  if (any == object_->DispatcherAttached()) return any;
  if (!any) {
    object_->DetachDispatcher();
    return false;
  }
  ScopedLibbpfLogRoute route(logger_);
  if (const int err = object_->AttachDispatcher(); err != 0) {
    return ErrnoStatus(-err, "attaching the probe to tp_btf/sys_exit again");
  }
  return true;
}

absl::StatusOr<uint64_t> Probe::CounterActivity() {
  pman_stats stats{};
  if (absl::Status s = GetStats(&stats, nullptr, 0); !s.ok()) return s;
  const kestrel_cpu_counters& t = stats.total;
  return t.records_written + kestrel_counters_dropped(&t) + t.drop_markers;
}

absl::Status Probe::DetachAndSettle() {
  if (absl::Status s = Detach(); !s.ok()) return s;
  if (absl::Status s = WaitForRunningPrograms(); !s.ok()) return s;
  // The grace period should be the end of it; the counters confirm it. A
  // program still counting would be a kernel running BPF outside RCU: give
  // it a moment, then say so, as exact accounting is not possible then.
  constexpr int kTries = 100;
  constexpr useconds_t kPauseUs = 1000;
  absl::StatusOr<uint64_t> before = CounterActivity();
  for (int i = 0; before.ok() && i < kTries; ++i) {
    usleep(kPauseUs);
    absl::StatusOr<uint64_t> after = CounterActivity();
    if (!after.ok() || *after == *before) return after.status();
    before = after;
  }
  if (!before.ok()) return before.status();
  return absl::InternalError("the probe's counters still moved 100 ms after it was detached");
}

void Probe::Unload() {
  control_.reset();
  pins_.reset();
  merger_.reset();
  doorbells_.clear();
  mpsc_.reset();
  if (epoll_fd_ >= 0) close(epoll_fd_);
  epoll_fd_ = -1;
  object_.reset();
  for (int fd : ring_fds_) close(fd);
  ring_fds_.clear();
  ring_locked_bytes_ = 0;
  load_stats_.clear();
  filler_stats_.clear();
  loaded_ = false;
}

absl::Status Probe::RequireLoaded(const char* what) const {
  if (!loaded_) return absl::FailedPreconditionError(absl::StrFormat("%s before pman_load", what));
  return absl::OkStatus();
}

FillerLoadTarget Probe::FillerTarget() const {
  FillerLoadTarget target;
  target.storage = object_->storage();
  target.prog_array_fd = bpf_map__fd(object_->custom_fillers());
  bpf_object* obj = object_->object();
  target.map_fd = [obj](const std::string& name) -> absl::StatusOr<int> {
    const bpf_map* map = bpf_object__find_map_by_name(obj, name.c_str());
    if (map == nullptr || bpf_map__fd(map) < 0) {
      return absl::NotFoundError(absl::StrFormat("the probe has no map %s", name));
    }
    const int fd = fcntl(bpf_map__fd(map), F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return ErrnoStatus(errno, absl::StrFormat("duplicating the fd of map %s", name));
    return fd;
  };
  target.fail_load = options_.flags & PMAN_OPT_TEST_FAIL_FILLER_LOAD;
  return target;
}

absl::Status Probe::LoadFillersFor(const std::vector<uint32_t>& ids) {
  ScopedLibbpfLogRoute route(logger_);
  absl::StatusOr<std::vector<ProgramLoadStats>> loaded = LoadMissingFillers(FillerTarget(), ids);
  if (!loaded.ok()) return loaded.status();
  if (loaded->empty()) return absl::OkStatus();
  uint64_t insns = 0;
  uint64_t us = 0;
  for (const ProgramLoadStats& p : *loaded) {
    insns += p.verified_insns;
    us += p.verification_time_us;
  }
  logger_.Logf(PMAN_LOG_INFO, "loaded %zu filler program(s): %llu instructions verified in %.3f s",
               loaded->size(), static_cast<unsigned long long>(insns), us / 1e6);
  filler_stats_.insert(filler_stats_.end(), loaded->begin(), loaded->end());
  return absl::OkStatus();
}

absl::Status Probe::EnforceSyscallSet(const uint8_t* interesting, size_t n) {
  if (absl::Status s = RequireLoaded("pman_enforce_sc_set"); !s.ok()) return s;
  // An oversized or null table is the control's to refuse, before any load.
  if (interesting != nullptr && n <= KESTREL_SYSCALL_TABLE_SIZE) {
    if (absl::Status s = LoadFillersFor(SyscallIdsOf(interesting, n)); !s.ok()) return s;
  }
  return control_->EnforceSyscallSet(interesting, n);
}

absl::Status Probe::MarkSyscall(uint32_t id, bool interesting) {
  if (absl::Status s = RequireLoaded("pman_mark_single_64bit_syscall"); !s.ok()) return s;
  if (interesting) {
    if (absl::Status s = LoadFillersFor({id}); !s.ok()) return s;
  }
  return control_->MarkSyscall(id, interesting);
}

absl::StatusOr<std::vector<ProgramLoadStats>> Probe::ProgramStats() const {
  if (absl::Status s = RequireLoaded("pman_get_program_stats"); !s.ok()) return s;
  const int prog_array = bpf_map__fd(object_->custom_fillers());
  std::vector<ProgramLoadStats> all;
  bpf_program* prog;
  bpf_object__for_each_program(prog, object_->object()) {
    const std::string name = bpf_program__name(prog);
    auto known = [&](const std::vector<ProgramLoadStats>& v) {
      return std::find_if(v.begin(), v.end(), [&](const auto& p) { return p.name == name; });
    };
    if (auto it = known(load_stats_); it != load_stats_.end()) {
      all.push_back(*it);
      continue;
    }
    if (auto it = known(filler_stats_); it != filler_stats_.end()) {
      all.push_back(*it);
      continue;
    }
    ProgramLoadStats entry;
    entry.name = name;
    // Loaded by a controller in another process: the slots say so, and the
    // kernel still knows the instruction count (not the time).
    if (IsFiller(prog)) {
      absl::StatusOr<std::vector<uint32_t>> slots = FillerSlots(prog);
      if (!slots.ok()) return slots.status();
      absl::StatusOr<std::vector<uint32_t>> empty = EmptySlots(prog_array, *slots);
      if (!empty.ok()) return empty.status();
      uint32_t prog_id = 0;
      if (!slots->empty() && empty->empty() &&
          bpf_map_lookup_elem(prog_array, &slots->front(), &prog_id) == 0) {
        const int fd = bpf_prog_get_fd_by_id(prog_id);
        if (fd >= 0) {
          entry.loaded = true;
          entry.verified_insns = VerifiedInsns(fd);
          close(fd);
        }
      }
    }
    all.push_back(std::move(entry));
  }
  return all;
}

absl::Status Probe::SetDropClass(uint32_t id, uint32_t drop_class) {
  if (absl::Status s = RequireLoaded("pman_set_syscall_drop_class"); !s.ok()) return s;
  return control_->SetDropClass(id, drop_class);
}

absl::Status Probe::GetSyscallTables(uint8_t* interesting, uint8_t* drop_classes, size_t n) const {
  if (absl::Status s = RequireLoaded("pman_get_syscall_tables"); !s.ok()) return s;
  if (n > KESTREL_SYSCALL_TABLE_SIZE) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pman_get_syscall_tables: %zu entries asked for, the table has %d", n,
                        KESTREL_SYSCALL_TABLE_SIZE));
  }
  for (uint32_t id = 0; id < n; ++id) {
    if (interesting != nullptr) interesting[id] = control_->IsInteresting(id) ? 1 : 0;
    if (drop_classes != nullptr) drop_classes[id] = control_->DropClass(id);
  }
  return absl::OkStatus();
}

absl::Status Probe::SetOmittedParams(uint32_t omitted) {
  if (absl::Status s = RequireLoaded("pman_set_omitted_params"); !s.ok()) return s;
  return control_->SetOmittedParams(omitted);
}

absl::StatusOr<uint32_t> Probe::OmittedParams() const {
  if (absl::Status s = RequireLoaded("pman_get_omitted_params"); !s.ok()) return s;
  return control_->OmittedParams();
}

absl::StatusOr<kestrel_capture_settings> Probe::GetSettings() const {
  if (absl::Status s = RequireLoaded("pman_get_capture_settings"); !s.ok()) return s;
  return control_->GetSettings();
}

absl::Status Probe::UpdateSettings(const kestrel_capture_settings& settings) {
  if (absl::Status s = RequireLoaded("pman_update_capture_settings"); !s.ok()) return s;
  return control_->UpdateSettings(settings);
}

absl::StatusOr<uint64_t> Probe::Generation() const {
  if (absl::Status s = RequireLoaded("pman_get_settings_generation"); !s.ok()) return s;
  return control_->Generation();
}

absl::Status Probe::Pin(const char* dir) {
  if (absl::Status s = RequireLoaded("pman_pin"); !s.ok()) return s;
  if (pins_) return absl::FailedPreconditionError("the probe is already pinned");
  // Every map, so that a controller can load the fillers a syscall it
  // enables needs (PinnedCapture), except the prog array: a pinned one
  // would keep its fillers loaded after a kill (PinnedMaps).
  std::vector<std::pair<std::string, int>> probe_maps;
  bpf_map* map;
  bpf_object__for_each_map(map, object_->object()) {
    if (bpf_map__fd(map) >= 0 && bpf_map__type(map) != BPF_MAP_TYPE_PROG_ARRAY) {
      probe_maps.emplace_back(bpf_map__name(map), bpf_map__fd(map));
    }
  }
  absl::StatusOr<std::unique_ptr<PinnedMaps>> pins = PinnedMaps::Create(
      dir != nullptr ? dir : kDefaultPinDir, bpf_map__fd(object_->control_map()),
      bpf_map__fd(object_->cpu_counters()), bpf_map__fd(object_->ring_maps()), probe_maps);
  if (!pins.ok()) return pins.status();
  pins_ = *std::move(pins);
  if (pins_->replaced_stale()) {
    logger_.Logf(PMAN_LOG_WARNING,
                 "removed the pins a killed capture left at %s (no program used them)",
                 pins_->dir().c_str());
  }
  // From now on other processes write too: serialize with them.
  control_->set_lock_fd(pins_->lock_fd());
  logger_.Logf(PMAN_LOG_INFO, "capture pinned at %s", pins_->dir().c_str());
  return absl::OkStatus();
}

absl::Status Probe::LockSettings() {
  if (absl::Status s = RequireLoaded("pman_lock_settings"); !s.ok()) return s;
  if (absl::Status s =
          FreezeMappedMap(bpf_map__fd(object_->control_map()), object_->control_block(),
                          ControlMmapSize(object_->storage()));
      !s.ok()) {
    return s;
  }
  control_->MakeReadOnly();
  return absl::OkStatus();
}

absl::Status Probe::GetStats(pman_stats* stats, kestrel_cpu_counters* per_cpu, size_t per_cpu_len) {
  if (absl::Status s = RequireLoaded("pman_get_stats"); !s.ok()) return s;
  // The kernel pads each CPU's value to 8 bytes; our struct already is.
  static_assert(sizeof(kestrel_cpu_counters) % 8 == 0);
  std::vector<kestrel_cpu_counters> values(layout_.n_cpus);
  const uint32_t zero = 0;
  if (bpf_map_lookup_elem(bpf_map__fd(object_->cpu_counters()), &zero, values.data()) != 0) {
    return ErrnoStatus(errno, "reading the per-CPU counters");
  }
  *stats = pman_stats{};
  stats->n_cpus = layout_.n_cpus;
  stats->n_rings = layout_.n_rings;
  stats->ring_bytes = layout_.ring_bytes;
  stats->cpus_per_buffer = layout_.cpus_per_buffer;
  stats->n_cpus_with_ring = layout_.CpusWithRing();
  stats->locked_bytes = ring_locked_bytes_;
  for (uint32_t cpu = 0; cpu < layout_.n_cpus; ++cpu) {
    const kestrel_cpu_counters& c = values[cpu];
    AddCounters(stats->total, c);
    if (per_cpu != nullptr && cpu < per_cpu_len) per_cpu[cpu] = c;
  }
  return absl::OkStatus();
}

absl::StatusOr<const kestrel_record_header*> Probe::ConsumeFirst(int16_t* ring_index) {
  if (absl::Status s = RequireLoaded("pman_consume_first_event"); !s.ok()) return s;
  return merger_->Next(ring_index);
}

absl::Status Probe::GetRingBacklog(uint64_t* unread_bytes, uint64_t* ring_bytes) const {
  if (absl::Status s = RequireLoaded("pman_get_ring_backlog"); !s.ok()) return s;
  if (!merger_) return absl::FailedPreconditionError("pman_get_ring_backlog: no ring is mapped");
  *unread_bytes = merger_->MaxUnreadBytes();
  *ring_bytes = layout_.ring_bytes;
  return absl::OkStatus();
}

absl::StatusOr<int> Probe::Wait(int timeout_ms) {
  if (absl::Status s = RequireLoaded("pman_wait_for_events"); !s.ok()) return s;
  merger_->PublishAll();
  epoll_event events[8];
  const int n = epoll_wait(epoll_fd_, events, 8, timeout_ms);
  // A signal is how callers stop waiting: theirs to handle, not an error.
  if (n < 0 && errno == EINTR) return -EINTR;
  if (n < 0) return ErrnoStatus(errno, "waiting for ring data");
  // A doorbell's records only say "wake up": once heard, empty it, or epoll
  // would keep reporting it ready.
  for (RingReader& bell : doorbells_) {
    while (bell.Peek() != nullptr) bell.Release();
    bell.PublishConsumerPosition();
  }
  return n > 0 ? 1 : 0;
}

}  // namespace kestrel::pman
