#include "agent/probe/probe_loader.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"

namespace kestrel::agent {

namespace {

// "14,312": verified instruction counts run to six digits.
std::string WithThousands(uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
  return digits;
}

std::string DescribeAttached(pman_handle* h, double seconds) {
  const int n = pman_get_program_stats(h, nullptr, 0);
  if (n < 0) return "attached";
  std::vector<pman_program_stats> stats(n);
  if (pman_get_program_stats(h, stats.data(), stats.size()) < 0) return "attached";
  int loaded = 0;
  uint64_t insns = 0;
  for (const pman_program_stats& p : stats) {
    loaded += p.loaded ? 1 : 0;
    insns += p.verified_insns;
  }
  return absl::StrFormat("attached in %.2f s (%d programs, %s instructions verified)", seconds,
                         loaded, WithThousands(insns));
}

}  // namespace

HandlePtr LoadProbe(const ProbeStart& options, std::string* attached) {
  const auto start = std::chrono::steady_clock::now();
  pman_options pman_opts;
  pman_default_options(&pman_opts);
  pman_opts.buffer_bytes = options.buffer_bytes;
  pman_opts.cpus_per_buffer = options.cpus_per_buffer;
  if (options.online_cpus_only) pman_opts.flags |= PMAN_OPT_ONLY_ONLINE_CPUS;
  pman_opts.settings_storage = options.settings_storage;
  if (const char* all = std::getenv("KESTREL_LOAD_ALL_FILLERS"); all != nullptr && *all == '1') {
    pman_opts.flags |= PMAN_OPT_LOAD_ALL_FILLERS;
  }
  pman_opts.log_fn = options.log_fn;
  pman_opts.log_ctx = options.log_ctx;

  pman_handle* raw = nullptr;
  if (pman_init(&pman_opts, &raw) != 0) return nullptr;
  HandlePtr handle(raw);
  std::vector<uint8_t> table(pman_syscall_table_size(), options.all_syscalls ? 1 : 0);
  for (uint32_t id : options.syscalls) table[id] = 1;
  // The fillers the table needs load with the probe: one object load and
  // one parse of the kernel's BTF instead of two.
  if (pman_open(raw) != 0 || pman_preload_fillers(raw, table.data(), table.size()) != 0 ||
      pman_load(raw) != 0) {
    return nullptr;
  }

  kestrel_capture_settings settings{};
  if (pman_get_capture_settings(raw, &settings) != 0) return nullptr;
  settings.target_tgid = options.pid;
  settings.capture_io_data = options.io_data ? 1 : 0;
  if (absl::Status s = ApplySettingOverrides(options.settings, settings); !s.ok()) {
    if (options.log_fn != nullptr) {
      options.log_fn(options.log_ctx, PMAN_LOG_ERROR, std::string(s.message()).c_str());
    }
    return nullptr;
  }
  if (pman_update_capture_settings(raw, &settings) != 0) return nullptr;
  if (options.omitted_params != 0 && pman_set_omitted_params(raw, options.omitted_params) != 0) {
    return nullptr;
  }

  if (pman_enforce_sc_set(raw, table.data(), table.size()) != 0) return nullptr;
  // Pinned and locked once set up: other processes then see (and a lock
  // freezes) the capture as configured, before its first event. On any
  // failure the handle's close takes the pins down again.
  if (options.pin_dir &&
      pman_pin(raw, options.pin_dir->empty() ? nullptr : options.pin_dir->c_str()) != 0) {
    return nullptr;
  }
  if (options.lock_settings && pman_lock_settings(raw) != 0) return nullptr;
  if (pman_attach(raw) != 0) return nullptr;
  if (attached != nullptr) {
    *attached = DescribeAttached(
        raw, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return handle;
}

}  // namespace kestrel::agent
