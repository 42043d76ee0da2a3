/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Control of a capture running in another process, through the maps it
 * pinned with pman_pin(). The settings and the syscall table are mmapped:
 * each change is a plain store (no reload, no bpf() call) that the probe
 * sees on its next syscall, bumps the settings generation, and is reported
 * in the event stream as a settings_changed record.
 *
 * Writers in different processes are serialized by an flock on the pin
 * directory. Errors follow libpman.h: a negative errno, explained through
 * the log callback. Nothing is changed by a call that fails.
 */
#ifndef KESTREL_LIBPMAN_CONTROL_H
#define KESTREL_LIBPMAN_CONTROL_H

#include "libpman.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pman_control;

/* Opens the capture pinned at `dir` (NULL = PMAN_DEFAULT_PIN_DIR). A capture
 * locked with pman_lock_settings opens read-only. */
int pman_control_open(const char* dir, pman_log_fn log_fn, void* log_ctx,
                      struct pman_control** out);

/* Unmaps and closes; `c` may be NULL. The capture keeps running. */
void pman_control_close(struct pman_control* c);

/* 1 when the capture is locked and every change will be refused. */
int pman_control_is_read_only(struct pman_control* c);

int pman_control_get_capture_settings(struct pman_control* c, struct kestrel_capture_settings* out);
int pman_control_update_capture_settings(struct pman_control* c,
                                         const struct kestrel_capture_settings* settings);

/* Reads the settings, lets `edit` change them and publishes the result, all
 * under the writer lock: concurrent controllers never lose each other's
 * changes. `edit` returns 0, or a negative errno to abandon the change. */
int pman_control_edit_capture_settings(struct pman_control* c,
                                       int (*edit)(void* ctx, struct kestrel_capture_settings* s),
                                       void* ctx);

/* 1 if the syscall is interesting, 0 if not, negative errno on a bad id. */
int pman_control_is_syscall_interesting(struct pman_control* c, uint32_t syscall_id);
int pman_control_mark_syscall(struct pman_control* c, uint32_t syscall_id, bool interesting);
int pman_control_set_syscall_drop_class(struct pman_control* c, uint32_t syscall_id,
                                        uint32_t drop_class);

/* As pman_set_omitted_params and pman_get_omitted_params (libpman.h). */
int pman_control_set_omitted_params(struct pman_control* c, uint32_t omitted);
int pman_control_get_omitted_params(struct pman_control* c, uint32_t* omitted);

int pman_control_get_settings_generation(struct pman_control* c, uint64_t* generation);

#ifdef __cplusplus
}
#endif

#endif /* KESTREL_LIBPMAN_CONTROL_H */
