/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capture settings read by the probe on every interesting syscall and written
 * by user space through the mmapped control block (shared/control_block.h),
 * never through bpf().
 *
 * Torn reads: user space publishes a whole struct at a time with a seqlock
 * over two slots (see kestrel_settings_store). The writer always fills the
 * slot the probe is not reading, bumps that slot's sequence around the copy
 * and then flips `active`; the probe copies the active slot and retries if
 * its sequence moved. A probe therefore acts either on the old struct or the
 * new one, never on a mix. Each publish also stamps the same value at both
 * ends of the slot body, so the probe can count any torn copy that got past
 * the sequence check (there must be none: see settings_torn_reads).
 *
 * Generation: every change made through libpman (settings, syscall table,
 * drop classes, omitted parameters) ORs a KESTREL_CHANGED_* bit into
 * `changed` and then bumps `generation`; the probe reports each new
 * generation once as a settings_changed record, so no change goes unseen
 * downstream.
 */
#ifndef KESTREL_SHARED_CAPTURE_SETTINGS_H
#define KESTREL_SHARED_CAPTURE_SETTINGS_H

#include "kernel_types.h"
#include "settings_table.h"

/* One member per row of the settings table (settings_table.h), in row
 * order. The layout is ABI (libpman.h exposes it; the seqlock slots hold
 * it): the asserts below pin it, so moving a row fails the build. */
struct kestrel_capture_settings {
	KESTREL_SETTINGS_TABLE(KESTREL_SETTING_MEMBER)
};

#ifdef __cplusplus
#define KESTREL_STATIC_ASSERT static_assert
#else
#define KESTREL_STATIC_ASSERT _Static_assert
#endif
#define KESTREL_SETTINGS_AT(field, offset)                                                         \
	KESTREL_STATIC_ASSERT(__builtin_offsetof(struct kestrel_capture_settings, field) ==        \
				  (offset),                                                        \
			      "struct kestrel_capture_settings is ABI: " #field " moved")
KESTREL_SETTINGS_AT(boot_time_ns, 0);
KESTREL_SETTINGS_AT(snaplen, 8);
KESTREL_SETTINGS_AT(own_tgid, 12);
KESTREL_SETTINGS_AT(target_tgid, 16);
KESTREL_SETTINGS_AT(drop_failed, 20);
KESTREL_SETTINGS_AT(dropping_mode, 21);
KESTREL_SETTINGS_AT(capture_io_data, 22);
KESTREL_SETTINGS_AT(target_lists_set, 23);
KESTREL_SETTINGS_AT(sampling_ratio, 24);
KESTREL_SETTINGS_AT(fullcapture_port_lo, 28);
KESTREL_SETTINGS_AT(fullcapture_port_hi, 30);
KESTREL_SETTINGS_AT(target_tgids, 32);
KESTREL_SETTINGS_AT(target_cgroups, 64);
KESTREL_STATIC_ASSERT(sizeof(struct kestrel_capture_settings) == 96,
		      "struct kestrel_capture_settings is ABI: its size changed");
#undef KESTREL_SETTINGS_AT

/* Values of the per-syscall drop class table: what dropping mode does with
 * each syscall id. */
enum kestrel_drop_class {
	KESTREL_DROP_SAMPLED = 0, /* keep 1 in sampling_ratio */
	KESTREL_DROP_NEVER = 1,	  /* always keep */
	KESTREL_DROP_ALWAYS = 2,  /* keep none */
};

/* The part of a slot the probe copies: the stamps bracket the settings. */
struct kestrel_settings_body {
	__u64 stamp_head;
	struct kestrel_capture_settings settings;
	__u64 stamp_tail;
};

struct kestrel_settings_slot {
	__u32 seq; /* odd while the slot is being written */
	__u32 reserved;
	struct kestrel_settings_body body;
};

struct kestrel_settings_store {
	__u32 active; /* index of the slot readers use */
	__u32 reserved;
	struct kestrel_settings_slot slots[2];
};

/* kestrel_settings_generation.changed and the settings_changed record */
#define KESTREL_CHANGED_SETTINGS     (1U << 0)
#define KESTREL_CHANGED_SYSCALLS     (1U << 1)
#define KESTREL_CHANGED_DROP_CLASSES (1U << 2)
#define KESTREL_CHANGED_OMITTED	     (1U << 3) /* control_block.h's omitted_params */

struct kestrel_settings_generation {
	__u64 generation; /* bumped by user space after every change */
	__u64 reported;	  /* the last generation the probe reported */
	__u32 changed;	  /* KESTREL_CHANGED_* since `reported` */
	__u32 reserved;
};

#endif /* KESTREL_SHARED_CAPTURE_SETTINGS_H */
