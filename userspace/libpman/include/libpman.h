/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libpman: the Kestrel probe manager.
 *
 * A stable C ABI over the modern BPF probe: it loads and attaches the probe,
 * owns its rings, reads events out of them without copying, and edits the
 * capture settings and the interesting-syscall table through memory the
 * probe shares with user space.
 *
 * All state lives in a `struct pman_handle`; a process may hold several, and
 * handles are independent. A handle is not thread-safe: use it from one
 * thread at a time.
 *
 * Errors: every int-returning call returns 0 (or a count) on success and a
 * negative errno on failure, after describing the failure through the log
 * callback given in `struct pman_options`.
 *
 * Life cycle:
 *   pman_init -> pman_open -> pman_load -> pman_attach
 *             -> (consume, tune, read stats) ->
 *   pman_detach -> pman_close
 * pman_close at any point releases everything the handle created.
 */
#ifndef KESTREL_LIBPMAN_H
#define KESTREL_LIBPMAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/capture_settings.h"
#include "shared/control_block.h"
#include "shared/counters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI this header describes; pman_abi_version() returns the library's.
 * It is the shared library's soname (libpman.so.N) and changes whenever a
 * call or a flag is removed: docs/libpman.md, "ABI history", says what. */
#define PMAN_ABI_VERSION 2

/* Where pman_pin and pman_control_open go when given no directory. */
#define PMAN_DEFAULT_PIN_DIR "/sys/fs/bpf/kestrel"

/* Named ring sizes, in bytes (each a power of two and a page multiple), of
 * pman_options.buffer_bytes' type so that they need no widening. */
#define PMAN_BUFFER_BYTES_SMALL (UINT64_C(1) * 1024 * 1024)
#define PMAN_DEFAULT_BUFFER_BYTES (UINT64_C(8) * 1024 * 1024)
#define PMAN_BUFFER_BYTES_LARGE (UINT64_C(64) * 1024 * 1024)

/* pman_options.cpus_per_buffer: let libpman pick the topology from the CPU
 * count (see README, "Ring topology"). */
#define PMAN_CPUS_PER_BUFFER_AUTO UINT32_MAX

/* pman_options.flags */
#define PMAN_OPT_ONLY_ONLINE_CPUS (1U << 0) /* no ring for CPUs offline at load */
/* (1U << 1) is taken by an internal option of Kestrel's bench. */
/* Load every custom filler program at pman_load, as before lazy loading.
 * Without it pman_load loads the dispatcher and the scheduler programs only,
 * and the fillers a syscall's event needs are loaded (and put in the
 * dispatcher's tail-call table) when the syscall first becomes interesting:
 * pman_enforce_sc_set, pman_mark_single_64bit_syscall and their
 * libpman_control.h counterparts. That spares the verifier's time for the
 * fillers never used, at the cost of a load on each growth of the set. */
#define PMAN_OPT_LOAD_ALL_FILLERS (1U << 2)

enum pman_log_level {
  PMAN_LOG_DEBUG = 0,
  PMAN_LOG_INFO = 1,
  PMAN_LOG_WARNING = 2,
  PMAN_LOG_ERROR = 3,
};

/* Receives every message of a handle; `message` is valid during the call. */
typedef void (*pman_log_fn)(void* ctx, enum pman_log_level level, const char* message);

struct pman_options {
  /* sizeof(struct pman_options) as the caller compiled it, so later
   * versions can add fields. Set by pman_default_options(). */
  uint32_t struct_size;
  /* Rings: 0 = one ring shared by all CPUs, N = one ring per N CPUs,
   * PMAN_CPUS_PER_BUFFER_AUTO (the default) = chosen from the CPU count. */
  uint32_t cpus_per_buffer;
  /* Bytes per ring: a power of two, at least one page. */
  uint64_t buffer_bytes;
  /* Where messages go; NULL drops them. */
  pman_log_fn log_fn;
  void* log_ctx;
  /* PMAN_OPT_* bits. Added after ABI 1's first fields: a caller whose
   * struct_size ends before it gets 0. */
  uint32_t flags;
  /* Where the probe keeps the settings and syscall tables: one of
   * enum pman_settings_storage. Was `reserved` (always 0): 0 still means
   * the default. */
  uint32_t settings_storage;
};

/* pman_options.settings_storage (README, "Settings storage modes"). */
enum pman_settings_storage {
  PMAN_SETTINGS_STORAGE_DEFAULT = 0,
  PMAN_SETTINGS_STORAGE_BSS = KESTREL_STORAGE_BSS,     /* a .bss global */
  PMAN_SETTINGS_STORAGE_ARRAY = KESTREL_STORAGE_ARRAY, /* a BPF_F_MMAPABLE array */
};

struct pman_handle;

/* Totals across CPUs plus the ring layout. */
struct pman_stats {
  struct kestrel_cpu_counters total;
  uint32_t n_cpus; /* possible CPUs: entries of the per-CPU array */
  uint32_t n_rings;
  uint64_t ring_bytes;      /* bytes of each ring's data area */
  uint32_t cpus_per_buffer; /* the topology in use (auto resolved) */
  uint32_t n_cpus_with_ring;
  uint64_t locked_bytes; /* kernel memory of all rings, as the kernel charges it */
};

int pman_abi_version(void);

/* Checks that the kernel's BTF, which the probes' CO-RE relocations read,
 * can be read: $KESTREL_BTF_PATH when set and not empty (a BTF file made
 * for this kernel), else /sys/kernel/btf/vmlinux. 0, or -errno with one
 * sentence naming the file through log_fn. */
int pman_check_kernel_btf(pman_log_fn log_fn, void* log_ctx);

/* Fills `opts` with the defaults: automatic topology, rings of
 * PMAN_DEFAULT_BUFFER_BYTES for every possible CPU, no log callback. */
void pman_default_options(struct pman_options* opts);

/* Creates a handle. Nothing touches the kernel yet. */
int pman_init(const struct pman_options* opts, struct pman_handle** out);

/* Opens the embedded BPF object. */
int pman_open(struct pman_handle* h);

/* Between pman_open and pman_load: pman_load also loads the fillers the
 * syscalls marked in `interesting` (n entries, as pman_enforce_sc_set)
 * need, in the same load as the dispatcher. A later pman_enforce_sc_set
 * with those syscalls then finds them loaded, where loading them lazily
 * would open the embedded object and parse the kernel's BTF a second time.
 * It marks nothing interesting. Ignored with PMAN_OPT_LOAD_ALL_FILLERS. */
int pman_preload_fillers(struct pman_handle* h, const uint8_t* interesting, size_t n);

/* Creates the rings, loads the probe into the kernel and maps its shared
 * memory. On failure nothing the call created is left behind. The probe
 * starts with every syscall uninteresting and own_tgid set to the caller. */
int pman_load(struct pman_handle* h);

/* Attaches the probe: events flow from here on. */
int pman_attach(struct pman_handle* h);

/* Detaches the probe; it stays loaded and can be attached again. */
int pman_detach(struct pman_handle* h);

/* Detaches the probe and waits until none of its programs is still running
 * on any CPU (one that started before the detach finishes first), so that
 * the counters are final and every record counted in records_written is
 * committed in a ring. Drain the rest with pman_consume_first_event; then
 *   records consumed + left in the rings == records_written.
 * Added in ABI 1 after its first release: check with dlsym if the library
 * may be older. */
int pman_detach_and_settle(struct pman_handle* h);

/* Makes the sys_exit hook follow the interesting-syscall table: attached
 * while the table holds a syscall, detached while it holds none, so that a
 * capture left with nothing to capture costs no syscall anything. The table
 * may have been changed by this process or through the pin; call this after
 * such a change, or now and then. Returns 1 when the hook is attached after
 * the call, 0 when it is not (or before pman_attach), or a negative errno.
 * Added in ABI 2 after its first release: check with dlsym if the library
 * may be older. */
int pman_follow_syscall_set(struct pman_handle* h);

/* Detaches, unloads and frees everything; `h` may be NULL. */
void pman_close(struct pman_handle* h);

/* Makes exactly the syscalls with `interesting[id] != 0` interesting, for
 * ids below `n`; all ids at or above `n` become uninteresting. Rejects `n`
 * larger than the table. The filler programs the newly interesting
 * syscalls need are loaded first, all in one load (see
 * PMAN_OPT_LOAD_ALL_FILLERS); when that fails the table is left exactly as
 * it was and the message names the programs. */
int pman_enforce_sc_set(struct pman_handle* h, const uint8_t* interesting, size_t n);

/* Turns one 64-bit syscall id on or off: a single store the probe sees on
 * its next syscall, after loading the filler its event needs, if any (as
 * pman_enforce_sc_set). */
int pman_mark_single_64bit_syscall(struct pman_handle* h, uint32_t syscall_id, bool interesting);

/* Size of the interesting-syscall table: valid ids are below it. */
uint32_t pman_syscall_table_size(void);

/* Copies out the settings the probe is using. */
int pman_get_capture_settings(struct pman_handle* h, struct kestrel_capture_settings* out);

/* Publishes a whole new settings struct. The probe sees either the old or
 * the new struct on each syscall, never a mix. No syscall is made. */
int pman_update_capture_settings(struct pman_handle* h,
                                 const struct kestrel_capture_settings* settings);

/* Sets the dropping-mode class of one syscall id: an enum
 * kestrel_drop_class value. */
int pman_set_syscall_drop_class(struct pman_handle* h, uint32_t syscall_id, uint32_t drop_class);

/* Copies out the first `n` entries (at most the table size) of the
 * interesting-syscall table (1 = captured) and of the drop classes; either
 * output may be NULL. A reader that keeps a copy can tell a change it did
 * not make, by whatever means it was made. */
int pman_get_syscall_tables(struct pman_handle* h, uint8_t* interesting, uint8_t* drop_classes,
                            size_t n);

/* Parameters the probe leaves empty, as KESTREL_OMIT_* bits
 * (shared/control_block.h): a reader that needs no kernel-resolved path of
 * opened files sets KESTREL_OMIT_OPEN_PATH and spares the probe a dentry
 * walk per open. A single store the probe sees on its next syscall; 0 (the
 * default at load) omits nothing. Unknown bits are refused with -EINVAL.
 * Added in ABI 1 after its first release: check with dlsym if the library
 * may be older. */
int pman_set_omitted_params(struct pman_handle* h, uint32_t omitted);
int pman_get_omitted_params(struct pman_handle* h, uint32_t* omitted);

/* The settings generation: every change made through libpman (settings,
 * syscall table, drop classes, omitted parameters) bumps it, and the probe
 * reports each new generation once as a KESTREL_EVT_SETTINGS_CHANGED
 * record. */
int pman_get_settings_generation(struct pman_handle* h, uint64_t* generation);

/* Pins the settings and syscall tables (the map holding the control block,
 * .bss or array: pin "control"), the counters and the ring table under the
 * bpffs directory `dir` (NULL = PMAN_DEFAULT_PIN_DIR),
 * created 0700 with 0600 pins, for control from other processes (see
 * libpman_control.h). pman_close removes them. From here on writes through
 * this handle take the same cross-process lock as other controllers. */
int pman_pin(struct pman_handle* h, const char* dir);

/* Tamper resistance for deployments that need no live tuning: unmaps the
 * writable settings mapping, freezes the control block's map (bpf_map_freeze,
 * .bss or array) and maps it back read-only. Every later change is refused with -EPERM, here and in
 * any other process. Fails with -EBUSY while a controller maps it writable. */
int pman_lock_settings(struct pman_handle* h);

/* Reads the counters. `per_cpu` may be NULL; otherwise it receives up to
 * `per_cpu_len` entries, one per possible CPU (stats->n_cpus of them). */
int pman_get_stats(struct pman_handle* h, struct pman_stats* stats,
                   struct kestrel_cpu_counters* per_cpu, size_t per_cpu_len);

/* What loading each BPF program of the probe cost the kernel's verifier. */
struct pman_program_stats {
  char name[64];                 /* the program's name in the object, e.g. fill_openat */
  uint32_t loaded;               /* 1 when the program is in the kernel */
  uint32_t verified_insns;       /* instructions the verifier walked (0 if not loaded) */
  uint64_t verification_time_us; /* as the verifier reported it; 0 when unknown */
};

/* One entry per program of the probe (the dispatcher, the scheduler
 * programs, every filler), loaded or not, into `out[0..n)`; returns how
 * many programs there are (may exceed `n`: call with n = 0 to size `out`).
 * Times are known for programs this handle loaded; a filler another
 * process loaded through libpman_control.h shows loaded with its
 * instruction count and time 0. The owning handle only.
 * Added in ABI 1 after its first release: check with dlsym if the library
 * may be older. */
int pman_get_program_stats(struct pman_handle* h, struct pman_program_stats* out, size_t n);

/* How far the reader is behind: in the fullest ring, the bytes written and
 * not yet read, and the size of a ring's data area. A ring loses records
 * when what it holds reaches its size; it holds what is unread plus up to
 * an eighth of the ring read and not given back yet (space is returned in
 * batches). A few loads per ring, no syscall: cheap enough to call between
 * batches, which is how a consumer notices it falls behind before records
 * are lost (load shedding). */
int pman_get_ring_backlog(struct pman_handle* h, uint64_t* unread_bytes, uint64_t* ring_bytes);

/* Returns the oldest record available across all rings, by timestamp
 * (README, "Ordering guarantee"). After a loss, a record of type
 * KESTREL_EVT_DROP_MARKER says how many records that CPU lost, ahead of its
 * next record.
 *
 * On success returns 0 and sets `*record` to a pointer into the ring (a
 * struct kestrel_record_header followed by its parameters) and `*buffer_id`
 * to the ring it came from; `*record` is NULL when no record is ready. The
 * record stays valid until the next call on this handle, which releases it.
 */
int pman_consume_first_event(struct pman_handle* h, void** record, int16_t* buffer_id);

/* Sleeps until a ring has enough data to be worth draining or `timeout_ms`
 * passes (-1 = no timeout). Returns 1 when data is ready, 0 on timeout,
 * -EINTR when interrupted by a signal (not logged: a signal is how a
 * caller stops waiting, not a failure). Never spins. */
int pman_wait_for_events(struct pman_handle* h, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* KESTREL_LIBPMAN_H */
