/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libpman flight recorder: a probe that writes into an overwrite ring and
 * keeps running with no process attached, pinned under
 * <pin_root>/<name>/ (default /sys/fs/bpf/kestrel/<name>/), and a reader
 * that any later process can open to take the newest records.
 *
 * Errors follow libpman.h: 0 or a count on success, a negative errno on
 * failure after a message on the log callback.
 *
 *   pman_recorder_start   load, attach, pin everything, return (the
 *                         recorder outlives the caller)
 *   pman_recorder_open    map a running recorder read-only
 *   pman_recorder_read    copy out the newest records, oldest first
 *   pman_recorder_close   unmap (the recorder keeps running)
 *   pman_recorder_stop    unpin: the probe detaches and its memory is freed
 */
#ifndef KESTREL_LIBPMAN_RECORDER_H
#define KESTREL_LIBPMAN_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpman.h"
#include "shared/counters.h"
#include "shared/record_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PMAN_RECORDER_DEFAULT_PIN_ROOT "/sys/fs/bpf/kestrel"
#define PMAN_RECORDER_DEFAULT_NAME "default"
#define PMAN_RECORDER_DEFAULT_BYTES (64ULL * 1024 * 1024)

struct pman_recorder_options {
  /* sizeof(struct pman_recorder_options); set by
   * pman_recorder_default_options(). */
  uint32_t struct_size;
  /* Pins go to <pin_root>/<name>/. name: letters, digits, '-', '_', '.'. */
  const char* pin_root;
  const char* name;
  /* start only: total bytes of slots, a power of two of at least 64 KiB. */
  uint64_t size_bytes;
  /* start only: false = one ring shared by all CPUs (memory does not grow
   * with the CPU count, one global order); true = one ring per possible
   * CPU, size_bytes split among them. */
  bool per_cpu;
  /* start only: syscall ids with interesting[id] != 0 are recorded; NULL =
   * every syscall. */
  const uint8_t* interesting;
  size_t n_interesting;
  /* start only: record only tasks of this cgroup (v2 id); 0 = all. */
  uint64_t cgroup_id;
  /* start only: record only this process; 0 = all. */
  uint32_t target_tgid;
  pman_log_fn log_fn;
  void* log_ctx;
};

struct pman_recorder;

struct pman_recorder_status {
  uint32_t n_rings;
  uint32_t slots_per_ring;
  uint64_t size_bytes;
  uint64_t cgroup_id;
  uint64_t boot_time_ns;                /* add to a record's ts_ns for wall time */
  uint64_t started_boot_ns;             /* CLOCK_BOOTTIME when the recorder started */
  uint64_t slots_reserved;              /* over all rings, since start */
  struct kestrel_cpu_counters counters; /* summed over CPUs */
};

/* What one read saw besides the records it returned. */
struct pman_recorder_read_stats {
  uint64_t records;    /* delivered */
  uint64_t torn;       /* overwritten while being copied: skipped */
  uint64_t in_flight;  /* still being written when read: skipped */
  uint64_t lost_slots; /* in the window but never committed (writer
                          dropped or lapped): skipped */
};

/* Receives each record, oldest first; valid during the call only. A
 * non-zero return stops the read and is returned by pman_recorder_read. */
typedef int (*pman_recorder_record_fn)(void* ctx, const struct kestrel_record_header* record);

void pman_recorder_default_options(struct pman_recorder_options* opts);

/* Longest recorder name; a name becomes a directory under the pin root. */
#define PMAN_RECORDER_MAX_NAME 64

/* true when `name` is a name every recorder call accepts: 1 to
 * PMAN_RECORDER_MAX_NAME letters, digits, '-', '_' or '.', not "." or "..". */
bool pman_recorder_name_is_valid(const char* name);

/* -EEXIST when a recorder already runs there. The remains of a start that
 * was killed before it finished are removed first (with a warning on the
 * log), when every one of them is proven the recorder's; anything else in
 * the directory makes it fail with -EBADFD and touches nothing. */
int pman_recorder_start(const struct pman_recorder_options* opts);

/* Unpins and removes <pin_root>/<name>/; the probe detaches once nothing
 * else holds it. Returns 0 when it stopped a running recorder, 1 when it
 * removed a half-made one (a start that was killed before it finished).
 * Removes nothing unless every entry of the directory is proven to be the
 * recorder's (names, object kinds, map types and sizes, the info map's magic
 * and version, the links' programs):
 *   -ENOENT   no such directory
 *   -EBADFD   something in it is not the recorder's (the message names it)
 *   -EIO      another start or stop held the directory for 10 s */
int pman_recorder_stop(const struct pman_recorder_options* opts);

/* Fails with -EBADFD, naming the problem, on a directory that holds a
 * half-made recorder or anything not a recorder's. */
int pman_recorder_open(const struct pman_recorder_options* opts, struct pman_recorder** out);

int pman_recorder_get_status(struct pman_recorder* r, struct pman_recorder_status* status);

/* Takes the newest records: at most `last` of them (0 = no limit), and
 * only those with ts_ns >= since_boot_ns (CLOCK_BOOTTIME; 0 = no limit).
 * Records of concurrent writers are ordered by timestamp. `stats` may be
 * NULL. */
int pman_recorder_read(struct pman_recorder* r, uint64_t last, uint64_t since_boot_ns,
                       pman_recorder_record_fn fn, void* ctx,
                       struct pman_recorder_read_stats* stats);

void pman_recorder_close(struct pman_recorder* r);

#ifdef __cplusplus
}
#endif

#endif /* KESTREL_LIBPMAN_RECORDER_H */
