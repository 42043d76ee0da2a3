/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event ids carried in kestrel_record_header.type, and the fixed layouts of
 * the records whose shape never varies.
 */
#ifndef KESTREL_SHARED_EVENT_TYPES_H
#define KESTREL_SHARED_EVENT_TYPES_H

#include "record_format.h"

enum kestrel_event_type {
	KESTREL_EVT_UNKNOWN = 0,
	/* Any interesting syscall without a specific event: id, six raw
	 * arguments and the return value, all read at exit. */
	KESTREL_EVT_GENERIC_SYSCALL = 1,
	/* Not a thread's event (tid = tgid = 0): the settings moved to a new
	 * generation. */
	KESTREL_EVT_SETTINGS_CHANGED = 2,
	/* Per CPU (tid = tgid = 0): dropping mode started or stopped there. */
	KESTREL_EVT_DROP_START = 3,
	KESTREL_EVT_DROP_STOP = 4,
	KESTREL_EVT_TYPE_MAX,
};

#define KESTREL_GENERIC_NPARAMS 8

/* Parameters: syscall id, args[0..5], return value; each 8 bytes. */
struct kestrel_generic_record {
	struct kestrel_record_header hdr;
	__u16 param_len[KESTREL_GENERIC_NPARAMS];
	__u64 syscall_id;
	__u64 args[6];
	__s64 ret;
};

#define KESTREL_SETTINGS_CHANGED_NPARAMS 3

/* Parameters: what changed (KESTREL_CHANGED_* bits, u16), old and new
 * generation (u64). The u16 first keeps the u64s aligned. */
struct kestrel_settings_changed_record {
	struct kestrel_record_header hdr;
	__u16 param_len[KESTREL_SETTINGS_CHANGED_NPARAMS];
	__u16 what;
	__u64 old_generation;
	__u64 new_generation;
};

#define KESTREL_DROP_MARKER_NPARAMS 2

/* DROP_START and DROP_STOP. Parameters: the sampling ratio (u32) and the
 * settings generation in force (u64). */
struct kestrel_drop_marker_record {
	struct kestrel_record_header hdr;
	__u16 param_len[KESTREL_DROP_MARKER_NPARAMS];
	__u32 sampling_ratio;
	__u64 generation;
};

#endif /* KESTREL_SHARED_EVENT_TYPES_H */
