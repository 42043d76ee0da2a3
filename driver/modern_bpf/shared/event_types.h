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

#endif /* KESTREL_SHARED_EVENT_TYPES_H */
