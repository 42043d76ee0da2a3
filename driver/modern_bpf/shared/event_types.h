/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event ids carried in kestrel_record_header.type, and the fixed layouts of
 * the records whose shape never varies.
 */
#ifndef KESTREL_SHARED_EVENT_TYPES_H
#define KESTREL_SHARED_EVENT_TYPES_H

#include "event_schema.h"
#include "record_format.h"

enum kestrel_event_type {
	KESTREL_EVT_UNKNOWN = 0,
	/* Any interesting syscall without a specific event: id, six raw
	 * arguments and the return value, all read at exit. */
	KESTREL_EVT_GENERIC_SYSCALL = 1,
	/* 2..63: events not tied to one syscall. */
	/* Records of this CPU were lost since its previous marker; written
	 * in front of the next record the CPU manages to reserve. */
	KESTREL_EVT_DROP_MARKER = 2,
	/* Not a thread's event (tid = tgid = 0): the settings moved to a new
	 * generation. */
	KESTREL_EVT_SETTINGS_CHANGED = 3,
	/* Per CPU (tid = tgid = 0): dropping mode started or stopped there. */
	KESTREL_EVT_DROP_START = 4,
	KESTREL_EVT_DROP_STOP = 5,
	/* Never the probe's: user space's snapshot of the system at start
	 * (engine/state/snapshot_records.h), one record per thread and one per
	 * open descriptor, kept in a capture file's snapshot blocks. */
	KESTREL_EVT_SNAPSHOT_THREAD = 6,
	KESTREL_EVT_SNAPSHOT_FD = 7,
/* Events of the schema not tied to one syscall, ids fixed there. */
#define KESTREL_OTHER_ENUM_ENTRY(name, id, params) KESTREL_EVT_##name = id,
	KESTREL_OTHER_EVENTS(KESTREL_OTHER_ENUM_ENTRY)
#undef KESTREL_OTHER_ENUM_ENTRY
	/* Specific syscall events follow, one per event of the schema. */
	KESTREL_EVT_SYSCALL_BASE = 63,
#define KESTREL_EVENT_ENUM_ENTRY(name, syscall, params) KESTREL_EVT_##name,
	KESTREL_SYSCALL_EVENTS(KESTREL_EVENT_ENUM_ENTRY)
#undef KESTREL_EVENT_ENUM_ENTRY
	    KESTREL_EVT_TYPE_MAX,
};

/* A specific event's slot in every per-event table: the probe's schema
 * tables and the custom_fillers program array user space fills. Both sides
 * index with this one definition, so they cannot disagree. */
#define KESTREL_EVENT_INDEX(type) ((type)-KESTREL_EVT_SYSCALL_BASE - 1)
#define KESTREL_N_SPECIFIC_EVENTS KESTREL_EVENT_INDEX(KESTREL_EVT_TYPE_MAX)

/* Parameter count of each specific event, e.g. KESTREL_NPARAMS_OPENAT. */
#define KESTREL_PARAM_COUNT_ONE(name, type, source, flag_set) +1
#define KESTREL_EVENT_NPARAMS_ENTRY(name, syscall, params)                                         \
	KESTREL_NPARAMS_##name = 0 params(KESTREL_PARAM_COUNT_ONE),
enum kestrel_event_nparams {
	KESTREL_SYSCALL_EVENTS(KESTREL_EVENT_NPARAMS_ENTRY)
	    KESTREL_OTHER_EVENTS(KESTREL_EVENT_NPARAMS_ENTRY)
};
#undef KESTREL_EVENT_NPARAMS_ENTRY

#define KESTREL_GENERIC_NPARAMS 8

/* Parameters: syscall id, args[0..5], return value; each 8 bytes. */
struct kestrel_generic_record {
	struct kestrel_record_header hdr;
	__u16 param_len[KESTREL_GENERIC_NPARAMS];
	__u64 syscall_id;
	__u64 args[6];
	__s64 ret;
};

#define KESTREL_DROP_MARKER_NPARAMS 4

/* hdr.cpu is the CPU that lost the records, hdr.ts_ns when the marker was
 * written. Parameters, each 8 bytes: records lost since this CPU's previous
 * marker (exact), boot time of the first and of the last of those losses,
 * and all records this CPU has lost since the probe was loaded. */
struct kestrel_drop_marker_record {
	struct kestrel_record_header hdr;
	__u16 param_len[KESTREL_DROP_MARKER_NPARAMS];
	__u64 lost;
	__u64 first_loss_ns;
	__u64 last_loss_ns;
	__u64 lost_total;
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

#define KESTREL_SAMPLING_MARKER_NPARAMS 2

/* DROP_START and DROP_STOP. Parameters: the sampling ratio (u32) and the
 * settings generation in force (u64). */
struct kestrel_sampling_marker_record {
	struct kestrel_record_header hdr;
	__u16 param_len[KESTREL_SAMPLING_MARKER_NPARAMS];
	__u32 sampling_ratio;
	__u64 generation;
};

#endif /* KESTREL_SHARED_EVENT_TYPES_H */
