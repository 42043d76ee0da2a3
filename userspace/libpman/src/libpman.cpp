// The C ABI: argument checks, then a call into Probe, with every failure
// turned into a negative errno and a message on the handle's log callback.
// No exception crosses this boundary.
#include "libpman.h"

#include <cerrno>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "c_abi_guard.h"
#include "internal/libpman_bench.h"  // pman_measure_settings_costs needs the handle
#include "kernel_btf.h"
#include "options_compat.h"
#include "probe.h"
#include "shared/syscall_table_x86_64.h"

struct pman_handle {
  std::unique_ptr<kestrel::pman::Probe> probe;
};

namespace {

using kestrel::pman::Logger;
using kestrel::pman::Probe;

// Runs `fn(probe)` for a valid handle, mapping its status and any escaping
// exception (std::bad_alloc, in practice) to a negative errno.
template <typename Fn>
int Call(pman_handle* h, Fn&& fn) {
  if (h == nullptr || !h->probe) return -EINVAL;
  return kestrel::pman::GuardedCall(h->probe->logger(), [&] { return fn(*h->probe); });
}

}  // namespace

extern "C" {

int pman_abi_version(void) { return PMAN_ABI_VERSION; }

int pman_check_kernel_btf(pman_log_fn log_fn, void* log_ctx) {
  return kestrel::pman::GuardedCall(Logger(log_fn, log_ctx),
                                    [] { return kestrel::pman::CheckKernelBtfReadable(); });
}

void pman_default_options(struct pman_options* opts) {
  if (opts == nullptr) return;
  *opts = pman_options{};
  opts->struct_size = sizeof(*opts);
  opts->cpus_per_buffer = PMAN_CPUS_PER_BUFFER_AUTO;
  opts->buffer_bytes = PMAN_DEFAULT_BUFFER_BYTES;
}

int pman_init(const struct pman_options* opts, struct pman_handle** out) {
  if (opts == nullptr || out == nullptr) return -EINVAL;
  *out = nullptr;
  try {
    absl::StatusOr<std::unique_ptr<Probe>> probe =
        Probe::Create(kestrel::pman::CompleteOptions(opts));
    if (!probe.ok()) {
      return kestrel::pman::ReportStatus(Logger(opts->log_fn, opts->log_ctx), probe.status());
    }
    *out = new pman_handle{*std::move(probe)};
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
}

int pman_open(struct pman_handle* h) {
  return Call(h, [](Probe& p) { return p.Open(); });
}

int pman_preload_fillers(struct pman_handle* h, const uint8_t* interesting, size_t n) {
  return Call(h, [&](Probe& p) { return p.PreloadFillers(interesting, n); });
}

int pman_load(struct pman_handle* h) {
  return Call(h, [](Probe& p) { return p.Load(); });
}

int pman_attach(struct pman_handle* h) {
  return Call(h, [](Probe& p) { return p.Attach(); });
}

int pman_detach(struct pman_handle* h) {
  return Call(h, [](Probe& p) { return p.Detach(); });
}

int pman_detach_and_settle(struct pman_handle* h) {
  return Call(h, [](Probe& p) { return p.DetachAndSettle(); });
}

int pman_follow_syscall_set(struct pman_handle* h) {
  int attached = 0;
  const int rc = Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<bool> now = p.FollowSyscallSet();
    if (!now.ok()) return now.status();
    attached = *now ? 1 : 0;
    return absl::OkStatus();
  });
  return rc < 0 ? rc : attached;
}

void pman_close(struct pman_handle* h) { delete h; }

int pman_enforce_sc_set(struct pman_handle* h, const uint8_t* interesting, size_t n) {
  return Call(h, [&](Probe& p) { return p.EnforceSyscallSet(interesting, n); });
}

int pman_mark_single_64bit_syscall(struct pman_handle* h, uint32_t syscall_id, bool interesting) {
  return Call(h, [&](Probe& p) { return p.MarkSyscall(syscall_id, interesting); });
}

uint32_t pman_syscall_table_size(void) { return KESTREL_SYSCALL_TABLE_SIZE; }

int pman_get_capture_settings(struct pman_handle* h, struct kestrel_capture_settings* out) {
  if (out == nullptr) return -EINVAL;
  return Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<kestrel_capture_settings> settings = p.GetSettings();
    if (!settings.ok()) return settings.status();
    *out = *settings;
    return absl::OkStatus();
  });
}

int pman_update_capture_settings(struct pman_handle* h,
                                 const struct kestrel_capture_settings* settings) {
  if (settings == nullptr) return -EINVAL;
  return Call(h, [&](Probe& p) { return p.UpdateSettings(*settings); });
}

int pman_set_syscall_drop_class(struct pman_handle* h, uint32_t syscall_id, uint32_t drop_class) {
  return Call(h, [&](Probe& p) { return p.SetDropClass(syscall_id, drop_class); });
}

int pman_get_syscall_tables(struct pman_handle* h, uint8_t* interesting, uint8_t* drop_classes,
                            size_t n) {
  return Call(h, [&](Probe& p) { return p.GetSyscallTables(interesting, drop_classes, n); });
}

int pman_set_omitted_params(struct pman_handle* h, uint32_t omitted) {
  return Call(h, [&](Probe& p) { return p.SetOmittedParams(omitted); });
}

int pman_get_omitted_params(struct pman_handle* h, uint32_t* omitted) {
  if (omitted == nullptr) return -EINVAL;
  return Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<uint32_t> bits = p.OmittedParams();
    if (!bits.ok()) return bits.status();
    *omitted = *bits;
    return absl::OkStatus();
  });
}

int pman_get_settings_generation(struct pman_handle* h, uint64_t* generation) {
  if (generation == nullptr) return -EINVAL;
  return Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<uint64_t> g = p.Generation();
    if (!g.ok()) return g.status();
    *generation = *g;
    return absl::OkStatus();
  });
}

int pman_pin(struct pman_handle* h, const char* dir) {
  return Call(h, [&](Probe& p) { return p.Pin(dir); });
}

int pman_lock_settings(struct pman_handle* h) {
  return Call(h, [](Probe& p) { return p.LockSettings(); });
}

int pman_measure_settings_costs(struct pman_handle* h, uint32_t iterations,
                                struct pman_settings_costs* out) {
  if (out == nullptr || iterations == 0) return -EINVAL;
  return Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<pman_settings_costs> costs = p.MeasureSettingsCosts(iterations);
    if (!costs.ok()) return costs.status();
    *out = *costs;
    return absl::OkStatus();
  });
}

int pman_get_stats(struct pman_handle* h, struct pman_stats* stats,
                   struct kestrel_cpu_counters* per_cpu, size_t per_cpu_len) {
  if (stats == nullptr) return -EINVAL;
  return Call(h, [&](Probe& p) { return p.GetStats(stats, per_cpu, per_cpu_len); });
}

int pman_get_program_stats(struct pman_handle* h, struct pman_program_stats* out, size_t n) {
  if (out == nullptr && n != 0) return -EINVAL;
  size_t count = 0;
  const int rc = Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<std::vector<kestrel::pman::ProgramLoadStats>> stats = p.ProgramStats();
    if (!stats.ok()) return stats.status();
    count = stats->size();
    for (size_t i = 0; i < count && i < n; ++i) {
      const kestrel::pman::ProgramLoadStats& s = (*stats)[i];
      pman_program_stats& o = out[i];
      o = pman_program_stats{};
      std::snprintf(o.name, sizeof(o.name), "%s", s.name.c_str());
      o.loaded = s.loaded ? 1 : 0;
      o.verified_insns = s.verified_insns;
      o.verification_time_us = s.verification_time_us;
    }
    return absl::OkStatus();
  });
  return rc < 0 ? rc : static_cast<int>(count);
}

int pman_get_ring_backlog(struct pman_handle* h, uint64_t* unread_bytes, uint64_t* ring_bytes) {
  if (unread_bytes == nullptr || ring_bytes == nullptr) return -EINVAL;
  return Call(h, [&](Probe& p) { return p.GetRingBacklog(unread_bytes, ring_bytes); });
}

int pman_consume_first_event(struct pman_handle* h, void** record, int16_t* buffer_id) {
  if (record == nullptr || buffer_id == nullptr) return -EINVAL;
  *record = nullptr;
  if (h == nullptr || !h->probe) return -EINVAL;
  // The one call made per record: no status objects on the way, the
  // guarded path only when the probe is not ready to be read.
  if (h->probe->ReadyToConsume()) {
    *record = const_cast<kestrel_record_header*>(h->probe->NextRecord(buffer_id));
    return 0;
  }
  return Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<const kestrel_record_header*> next = p.ConsumeFirst(buffer_id);
    if (!next.ok()) return next.status();
    *record = const_cast<kestrel_record_header*>(*next);
    return absl::OkStatus();
  });
}

int pman_wait_for_events(struct pman_handle* h, int timeout_ms) {
  int outcome = 0;
  const int rc = Call(h, [&](Probe& p) -> absl::Status {
    absl::StatusOr<int> r = p.Wait(timeout_ms);
    if (!r.ok()) return r.status();
    outcome = *r;
    return absl::OkStatus();
  });
  return rc < 0 ? rc : outcome;
}

}  // extern "C"
