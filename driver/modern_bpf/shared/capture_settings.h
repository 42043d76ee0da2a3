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
 * drop classes) ORs a KESTREL_CHANGED_* bit into `changed` and then bumps
 * `generation`; the probe reports each new generation once as a
 * settings_changed record, so no change goes unseen downstream.
 */
#ifndef KESTREL_SHARED_CAPTURE_SETTINGS_H
#define KESTREL_SHARED_CAPTURE_SETTINGS_H

#include "kernel_types.h"

/* Bounds of the target set: the probe scans every slot with plain loads on
 * each interesting syscall, so the set stays small. 0 marks an unused slot. */
#define KESTREL_MAX_TARGET_TGIDS   8
#define KESTREL_MAX_TARGET_CGROUPS 4

struct kestrel_capture_settings {
	__u64 boot_time_ns; /* wall-clock time of boot, to print ts_ns */
	__u32 snaplen;	    /* bytes of buffers/strings kept per parameter */
	__u32 own_tgid;	    /* never trace this process (Kestrel itself) */
	/* Target set: trace only processes whose tgid is target_tgid or one of
	 * target_tgids, or whose cgroup id is one of target_cgroups; all of
	 * them 0 = every process. */
	__u32 target_tgid;
	__u8 drop_failed;     /* skip syscalls that returned an error */
	__u8 dropping_mode;   /* 1 = keep 1 in sampling_ratio droppable syscalls */
	__u8 capture_io_data; /* copy read/write data (up to snaplen) into records */
	/* Derived when libpman publishes the settings, whatever the caller
	 * set: 1 if a target_tgids or target_cgroups slot is set. The probe
	 * copies the lists only then; most captures set none. */
	__u8 target_lists_set;
	__u32 sampling_ratio; /* N of the 1/N; 0 and 1 keep everything */
	/* Socket data on these ports (inclusive) is captured in full, not cut
	 * to snaplen; hi = 0 = no such range. */
	__u16 fullcapture_port_lo;
	__u16 fullcapture_port_hi;
	__u32 target_tgids[KESTREL_MAX_TARGET_TGIDS];
	__u64 target_cgroups[KESTREL_MAX_TARGET_CGROUPS];
};

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

struct kestrel_settings_generation {
	__u64 generation; /* bumped by user space after every change */
	__u64 reported;	  /* the last generation the probe reported */
	__u32 changed;	  /* KESTREL_CHANGED_* since `reported` */
	__u32 reserved;
};

#endif /* KESTREL_SHARED_CAPTURE_SETTINGS_H */
