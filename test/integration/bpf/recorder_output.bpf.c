// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only program: writes one record of a length the test chooses
 * through the recorder's multi-slot writer (sink_output), so the writer of
 * records longer than one slot is checked against the real verifier and the
 * real reader before any probe emits such records. Run with
 * BPF_PROG_TEST_RUN, never attached. args[0] = length, args[1] = seed.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../../driver/modern_bpf/helpers/sink/recorder_writer.h"

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u8[KESTREL_RECORDER_MAX_RECORD_BYTES]);
} scratch SEC(".maps");

/* The byte at offset i of a record made with `seed`. */
#define TEST_BYTE(seed, i) ((__u8)((seed) + (i)*7))

SEC("raw_tp")
int recorder_output(struct bpf_raw_tracepoint_args* ctx) {
  __u32 len = ctx->args[0];
  __u8 seed = ctx->args[1];
  struct kestrel_record_header* h;
  __u32 zero = 0;
  __u8* buf;
  void* ring;

  buf = bpf_map_lookup_elem(&scratch, &zero);
  if (!buf) return 1;
  /* Longer than the bound goes to sink_output, which must refuse it. */
  if (len < sizeof(*h)) return 2;
  for (__u32 i = sizeof(*h); i < KESTREL_RECORDER_MAX_RECORD_BYTES; i++) {
    if (i >= len) break;
    buf[i] = TEST_BYTE(seed, i);
  }
  h = (void*)buf;
  h->ts_ns = bpf_ktime_get_boot_ns();
  h->tid = 0;
  h->tgid = 0;
  h->len = len;
  h->type = KESTREL_EVT_UNKNOWN;
  h->version = KESTREL_SCHEMA_VERSION;
  h->nparams = 0;
  h->flags = 0;
  h->cpu = bpf_get_smp_processor_id();
  h->reserved = 0;
  ring = ring_for_this_cpu(h->cpu);
  if (!ring) return 3;
  return sink_output(ring, buf, len) ? 0 : 4;
}

char LICENSE[] SEC("license") = "GPL";
