// The C ABI of libpman_control.h over PinnedCapture.
#include "libpman_control.h"

#include <cerrno>
#include <memory>

#include "c_abi_guard.h"
#include "libbpf_log_route.h"
#include "pin_dir.h"
#include "pinned_capture.h"

struct pman_control {
  kestrel::pman::Logger logger;
  std::unique_ptr<kestrel::pman::PinnedCapture> capture;
};

namespace {

using kestrel::pman::GuardedCall;
using kestrel::pman::SettingsControl;

template <typename Fn>
int Call(pman_control* c, Fn&& fn) {
  if (c == nullptr || !c->capture) return -EINVAL;
  return GuardedCall(c->logger, [&] { return fn(c->capture->control()); });
}

}  // namespace

extern "C" {

int pman_control_open(const char* dir, pman_log_fn log_fn, void* log_ctx,
                      struct pman_control** out) {
  if (out == nullptr) return -EINVAL;
  *out = nullptr;
  kestrel::pman::Logger logger(log_fn, log_ctx);
  std::unique_ptr<pman_control> c;
  const int rc = GuardedCall(logger, [&]() -> absl::Status {
    auto capture =
        kestrel::pman::PinnedCapture::Open(dir != nullptr ? dir : kestrel::pman::kDefaultPinDir);
    if (!capture.ok()) return capture.status();
    c.reset(new pman_control{logger, *std::move(capture)});
    return absl::OkStatus();
  });
  if (rc == 0) *out = c.release();
  return rc;
}

void pman_control_close(struct pman_control* c) { delete c; }

int pman_control_is_read_only(struct pman_control* c) {
  if (c == nullptr || !c->capture) return -EINVAL;
  return c->capture->read_only() ? 1 : 0;
}

int pman_control_get_capture_settings(struct pman_control* c,
                                      struct kestrel_capture_settings* out) {
  if (out == nullptr) return -EINVAL;
  return Call(c, [&](SettingsControl& s) {
    *out = s.GetSettings();
    return absl::OkStatus();
  });
}

int pman_control_update_capture_settings(struct pman_control* c,
                                         const struct kestrel_capture_settings* settings) {
  if (settings == nullptr) return -EINVAL;
  return Call(c, [&](SettingsControl& s) { return s.UpdateSettings(*settings); });
}

int pman_control_edit_capture_settings(struct pman_control* c,
                                       int (*edit)(void* ctx, struct kestrel_capture_settings* s),
                                       void* ctx) {
  if (edit == nullptr) return -EINVAL;
  return Call(c, [&](SettingsControl& s) {
    return s.EditSettings([&](kestrel_capture_settings& settings) -> absl::Status {
      const int rc = edit(ctx, &settings);
      if (rc < 0) return kestrel::pman::ErrnoStatus(-rc, "the edit was abandoned; nothing changed");
      return absl::OkStatus();
    });
  });
}

int pman_control_is_syscall_interesting(struct pman_control* c, uint32_t syscall_id) {
  bool on = false;
  const int rc = Call(c, [&](SettingsControl& s) -> absl::Status {
    if (syscall_id >= pman_syscall_table_size()) {
      return absl::InvalidArgumentError("syscall id out of range");
    }
    on = s.IsInteresting(syscall_id);
    return absl::OkStatus();
  });
  return rc < 0 ? rc : static_cast<int>(on);
}

int pman_control_mark_syscall(struct pman_control* c, uint32_t syscall_id, bool interesting) {
  if (c == nullptr || !c->capture) return -EINVAL;
  return GuardedCall(c->logger, [&] {
    kestrel::pman::ScopedLibbpfLogRoute route(c->logger);
    return c->capture->MarkSyscall(syscall_id, interesting);
  });
}

int pman_control_set_syscall_drop_class(struct pman_control* c, uint32_t syscall_id,
                                        uint32_t drop_class) {
  return Call(c, [&](SettingsControl& s) { return s.SetDropClass(syscall_id, drop_class); });
}

int pman_control_set_omitted_params(struct pman_control* c, uint32_t omitted) {
  return Call(c, [&](SettingsControl& s) { return s.SetOmittedParams(omitted); });
}

int pman_control_get_omitted_params(struct pman_control* c, uint32_t* omitted) {
  if (omitted == nullptr) return -EINVAL;
  return Call(c, [&](SettingsControl& s) {
    *omitted = s.OmittedParams();
    return absl::OkStatus();
  });
}

int pman_control_get_settings_generation(struct pman_control* c, uint64_t* generation) {
  if (generation == nullptr) return -EINVAL;
  return Call(c, [&](SettingsControl& s) {
    *generation = s.Generation();
    return absl::OkStatus();
  });
}

}  // extern "C"
