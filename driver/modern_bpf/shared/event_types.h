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
/* 2..63: events not tied to one syscall, ids fixed by the schema. */
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

#endif /* KESTREL_SHARED_EVENT_TYPES_H */
