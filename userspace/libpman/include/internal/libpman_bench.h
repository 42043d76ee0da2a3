/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libpman's measurement hooks, for Kestrel's own bench (tools/bench) and
 * tests only. NOT part of the public ABI and never installed: what is here
 * may change or go away in any release, so an embedder must not rely on it.
 *
 * Errors follow libpman.h: 0 or a count on success, a negative errno on
 * failure after a message on the log callback.
 */
#ifndef KESTREL_LIBPMAN_INTERNAL_LIBPMAN_BENCH_H
#define KESTREL_LIBPMAN_INTERNAL_LIBPMAN_BENCH_H

#include <stdint.h>

#include "libpman.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pman_options.flags: rings are BPF ring buffers, whose producers take a
 * spinlock, instead of MPSC rings reserved by compare-and-swap (README,
 * "Ring kinds"); slower, kept so the bench can measure the difference. */
#define PMAN_OPT_RINGBUF (1U << 1)

/* pman_options.flags, tests only: fillers loaded after pman_load get a
 * verifier log far too small for them, so the kernel refuses their load
 * (ENOSPC): a real load failure, to check what a failed growth leaves. */
#define PMAN_OPT_TEST_FAIL_FILLER_LOAD (1U << 31)

/* What a settings change costs, measured on a loaded handle (it changes
 * nothing in the end: every toggle is undone). */
struct pman_settings_costs {
  double mmap_toggle_ns;  /* one syscall on/off: a store + generation bump */
  double mmap_publish_ns; /* a whole settings struct through the seqlock */
  double map_update_ns;   /* the same toggle through bpf_map_update_elem */
  /* The sys_exit program's main function only, the path every syscall
   * runs (its out-of-line capture subprograms excluded): */
  uint32_t xlated_insns; /* BPF instructions after the verifier */
  uint32_t jited_bytes;  /* x86-64 machine code */
};

int pman_measure_settings_costs(struct pman_handle* h, uint32_t iterations,
                                struct pman_settings_costs* out);

/* libpman's own zero-copy reader over a BPF ring buffer that is not the
 * probe's (the bench's minimal producer), so a comparison with the probe's
 * rings measures the probe and its rings, not a different reader. */
struct pman_bench_ring_reader;

/* Maps the BPF_MAP_TYPE_RINGBUF behind `ring_fd` (`ring_bytes` of data;
 * the reader does not own the fd). `log_fn` (may be NULL) gets the message
 * of a failure. */
int pman_bench_ring_reader_open(int ring_fd, uint64_t ring_bytes, pman_log_fn log_fn, void* log_ctx,
                                struct pman_bench_ring_reader** out);

/* Reads every record now in the ring, releasing each; returns how many. */
uint64_t pman_bench_ring_reader_drain(struct pman_bench_ring_reader* r);

/* Unmaps the ring; `r` may be NULL. */
void pman_bench_ring_reader_close(struct pman_bench_ring_reader* r);

/* The memory the kernel charges for the BPF map behind `map_fd`, as its
 * fdinfo reports it: the figure `kestrel stats` calls locked memory. */
int pman_bench_map_memlock_bytes(int map_fd, pman_log_fn log_fn, void* log_ctx, uint64_t* out);

#ifdef __cplusplus
}
#endif

#endif /* KESTREL_LIBPMAN_INTERNAL_LIBPMAN_BENCH_H */
