/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builds one variable-length record in a per-CPU scratch area, parameter by
 * parameter, then copies it into the CPU's ring in one bpf_ringbuf_output.
 *
 * The builder's state lives in the scratch area itself, not on the stack, so
 * an event's filler can tail-call into a custom filler program that appends
 * the remaining parameters and submits.
 *
 * Offsets into the buffer are masked with KESTREL_MAX_RECORD_BYTES - 1: the
 * buffer is twice that size, so every masked write of at most
 * KESTREL_MAX_RECORD_BYTES stays inside it, which is what the verifier needs
 * to see. A record that really grows past the maximum is dropped and counted
 * at submit, never cut at a random place.
 */
#ifndef KESTREL_BPF_RECORD_BUILDER_H
#define KESTREL_BPF_RECORD_BUILDER_H

#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "../../shared/event_types.h"
#include "../base/counters.h"
#include "../base/maps.h"
#include "drop_markers.h"
#include "../base/record_header.h"
#include "../sink/sink.h"

#define RB_MASK	      (KESTREL_MAX_RECORD_BYTES - 1)
#define RB_PARAM_MASK (KESTREL_MAX_EVENT_PARAMS - 1)
/* Largest single buffer parameter (I/O data, argv): see
 * KESTREL_MAX_BUFFER_PARAM_BYTES, which also bounds the snaplen. */
#define RB_MAX_BUFFER KESTREL_MAX_BUFFER_PARAM_BYTES

static __always_inline struct scratch_area *scratch_area(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&scratch_maps, &cpu);
}

static __always_inline void rb_begin(struct scratch_area *s, __u16 type, __u8 nparams,
				     const struct kestrel_capture_settings *settings)
{
	s->type = type;
	s->nparams = nparams;
	s->next_param = 0;
	s->flags = 0;
#define KESTREL_COPY_TO_SCRATCH(field, key, flag, kind, ctype, count, access, scratch, def, min,   \
				max, help)                                                         \
	KESTREL_SCRATCH_COPY_##scratch(kind, s, settings, field)
	KESTREL_SETTINGS_TABLE(KESTREL_COPY_TO_SCRATCH)
#undef KESTREL_COPY_TO_SCRATCH
	s->payload_off = sizeof(struct kestrel_record_header) + 2 * (__u32)nparams;
}

/* Records the length of the parameter just written and moves past it. */
static __always_inline void rb_commit_param(struct scratch_area *s, __u16 len)
{
	__u32 slot = sizeof(struct kestrel_record_header) + 2 * (s->next_param & RB_PARAM_MASK);

	*(__u16 *)&s->buf[slot & RB_MASK] = len;
	s->next_param++;
	s->payload_off += len;
}

static __always_inline void rb_u64(struct scratch_area *s, __u64 v)
{
	*(__u64 *)&s->buf[s->payload_off & RB_MASK] = v;
	rb_commit_param(s, sizeof(v));
}

static __always_inline void rb_u32(struct scratch_area *s, __u32 v)
{
	*(__u32 *)&s->buf[s->payload_off & RB_MASK] = v;
	rb_commit_param(s, sizeof(v));
}

static __always_inline void rb_u16(struct scratch_area *s, __u16 v)
{
	*(__u16 *)&s->buf[s->payload_off & RB_MASK] = v;
	rb_commit_param(s, sizeof(v));
}

static __always_inline void rb_u8(struct scratch_area *s, __u8 v)
{
	s->buf[s->payload_off & RB_MASK] = v;
	rb_commit_param(s, sizeof(v));
}

static __always_inline void rb_empty(struct scratch_area *s)
{
	rb_commit_param(s, 0);
}

/* A string of at most `max` bytes (NUL included; max <= KESTREL_MAX_PATH).
 * A string that fills `max` exactly is flagged as possibly truncated. */
static __always_inline void rb_str(struct scratch_area *s, const void *ptr, __u32 max, bool user)
{
	__u32 off = s->payload_off & RB_MASK;
	long n;

	if (!ptr) {
		rb_empty(s);
		return;
	}
	if (max > KESTREL_MAX_PATH)
		max = KESTREL_MAX_PATH;
	if (max == 0)
		max = 1;
	n = user ? bpf_probe_read_user_str(&s->buf[off], max, ptr)
		 : bpf_probe_read_kernel_str(&s->buf[off], max, ptr);
	if (n <= 0) {
		rb_empty(s);
		return;
	}
	if (n == max)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	rb_commit_param(s, (__u16)n);
}

static __always_inline void rb_user_str(struct scratch_area *s, const void *ptr, __u32 max)
{
	rb_str(s, ptr, max, true);
}

static __always_inline void rb_kernel_str(struct scratch_area *s, const void *ptr, __u32 max)
{
	rb_str(s, ptr, max, false);
}

/* Up to `len` bytes of user memory, bounded by the snaplen. */
static __always_inline void rb_user_bytes(struct scratch_area *s, const void *ptr, __u64 len)
{
	__u32 off = s->payload_off & RB_MASK;
	__u32 n = len < s->snaplen ? (__u32)len : s->snaplen;

	if (!ptr) {
		rb_empty(s);
		return;
	}
	if (n > RB_MAX_BUFFER)
		n = RB_MAX_BUFFER;
	if (n < len)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	if (n == 0 || bpf_probe_read_user(&s->buf[off], n, ptr) != 0) {
		rb_empty(s);
		return;
	}
	rb_commit_param(s, (__u16)n);
}

/* Raw bytes already in kernel or map memory. */
static __always_inline void rb_kernel_bytes(struct scratch_area *s, const void *ptr, __u32 n)
{
	__u32 off = s->payload_off & RB_MASK;

	if (n > RB_MAX_BUFFER)
		n = RB_MAX_BUFFER;
	if (n == 0 || bpf_probe_read_kernel(&s->buf[off], n, ptr) != 0) {
		rb_empty(s);
		return;
	}
	rb_commit_param(s, (__u16)n);
}

/* Fills the parameters a filler did not reach with empty ones, so the
 * record still has the count its type promises. */
static __always_inline void rb_pad_missing(struct scratch_area *s)
{
	for (int i = 0; i < KESTREL_MAX_EVENT_PARAMS; i++) {
		if (s->next_param >= s->nparams)
			break;
		rb_empty(s);
	}
}

/* Writes the header and copies the record into this CPU's ring. */
static __always_inline void rb_submit(struct scratch_area *s)
{
	struct kestrel_cpu_counters *counters = this_cpu_counters();
	struct kestrel_record_header *h = (struct kestrel_record_header *)s->buf;
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 len = s->payload_off;

	if (!counters)
		return;
	if (len > KESTREL_MAX_RECORD_BYTES) {
		count_loss(&counters->drops_too_large);
		return;
	}
	fill_record_header(h, s->type, s->nparams, len, cpu, bpf_get_current_pid_tgid());
	h->flags = s->flags;
	output_record(s->buf, len, cpu, counters);
}

#endif /* KESTREL_BPF_RECORD_BUILDER_H */
