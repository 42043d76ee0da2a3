#include "probe_loader.h"

#include <vector>

#include <string>

#include "stderr_log.h"

namespace kestrel::cli {

HandlePtr LoadProbe(const CaptureOptions& options) {
  pman_options pman_opts;
  pman_default_options(&pman_opts);
  pman_opts.buffer_bytes = options.buffer_bytes;
  pman_opts.cpus_per_buffer = options.cpus_per_buffer;
  if (options.online_cpus_only) pman_opts.flags |= PMAN_OPT_ONLY_ONLINE_CPUS;
  pman_opts.settings_storage = options.settings_storage;
  pman_opts.log_fn = LogToStderr;
  pman_opts.log_ctx = CommandLogContext("kestrel");

  pman_handle* raw = nullptr;
  if (pman_init(&pman_opts, &raw) != 0) return nullptr;
  HandlePtr handle(raw);
  if (pman_open(raw) != 0 || pman_load(raw) != 0) return nullptr;

  kestrel_capture_settings settings{};
  if (pman_get_capture_settings(raw, &settings) != 0) return nullptr;
  settings.target_tgid = options.pid;
  settings.capture_io_data = options.io_data ? 1 : 0;
  if (absl::Status s = ApplySettingOverrides(options.settings, settings); !s.ok()) {
    LogToStderr(CommandLogContext("kestrel"), PMAN_LOG_ERROR, std::string(s.message()).c_str());
    return nullptr;
  }
  if (pman_update_capture_settings(raw, &settings) != 0) return nullptr;
  if (options.omitted_params != 0 && pman_set_omitted_params(raw, options.omitted_params) != 0) {
    return nullptr;
  }

  std::vector<uint8_t> table(pman_syscall_table_size(), options.all_syscalls ? 1 : 0);
  for (uint32_t id : options.syscalls) table[id] = 1;
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
  return handle;
}

}  // namespace kestrel::cli
