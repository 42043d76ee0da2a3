/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The event schema expanded into read-only tables the probe indexes at run
 * time: which event a syscall maps to, its parameter count, and whether it
 * is a register record and how long.
 */
#ifndef KESTREL_BPF_SCHEMA_TABLES_H
#define KESTREL_BPF_SCHEMA_TABLES_H

#include "vmlinux.h"

#include "../../shared/event_types.h"
#include "../../shared/record_format.h"
#include "../../shared/syscall_ids.h"

#define SCHEMA_SYSCALL_ENTRY(name, syscall, params) [KESTREL_NR_##syscall] = KESTREL_EVT_##name,
static const __u16 syscall_event[KESTREL_SYSCALL_TABLE_SIZE] = {
    KESTREL_SYSCALL_EVENTS(SCHEMA_SYSCALL_ENTRY)};
#undef SCHEMA_SYSCALL_ENTRY

#define SCHEMA_EVENT_NPARAMS(name, syscall, params)                                                \
	[KESTREL_EVENT_INDEX(KESTREL_EVT_##name)] = KESTREL_NPARAMS_##name,
static const __u8 event_nparams[KESTREL_N_SPECIFIC_EVENTS] = {
    KESTREL_SYSCALL_EVENTS(SCHEMA_EVENT_NPARAMS)};
#undef SCHEMA_EVENT_NPARAMS

/* Most parameters of a register record (register_record.h), and its
 * largest size: header, then that many 8-byte values with their lengths. */
#define SCHEMA_REGISTER_MAX_PARAMS   7
#define SCHEMA_REGISTER_RECORD_BYTES (32 + SCHEMA_REGISTER_MAX_PARAMS * (2 + 8))

/* Length of the event's record when every parameter is a fixed-size
 * register or return value and there are at most SCHEMA_REGISTER_MAX_PARAMS
 * of them (a register record); 0 otherwise. */
#define SCHEMA_PARAM_REGISTER_BYTES(name, type, source, flag_set)                                  \
	+((source) < KPS_CUSTOM && KESTREL_PARAM_FIXED_SIZE(type)                                  \
	      ? 2 + KESTREL_PARAM_FIXED_SIZE(type)                                                 \
	      : SCHEMA_REGISTER_RECORD_BYTES + 1)
#define SCHEMA_REGISTER_LEN(len, nparams)                                                          \
	((__u8)((len) <= SCHEMA_REGISTER_RECORD_BYTES && (nparams) <= SCHEMA_REGISTER_MAX_PARAMS   \
		    ? (len)                                                                        \
		    : 0))
/* Event `name`'s register record length, as a constant expression. */
#define SCHEMA_EVENT_REGISTER_BYTES(name, params)                                                  \
	SCHEMA_REGISTER_LEN(sizeof(struct kestrel_record_header)                                   \
				params(SCHEMA_PARAM_REGISTER_BYTES),                               \
			    KESTREL_NPARAMS_##name)
#define SCHEMA_EVENT_REGISTER_LEN(name, syscall, params)                                           \
	[KESTREL_EVENT_INDEX(KESTREL_EVT_##name)] = SCHEMA_EVENT_REGISTER_BYTES(name, params),
_Static_assert(sizeof(struct kestrel_record_header) == 32, "SCHEMA_REGISTER_RECORD_BYTES");
static const __u8 event_register_len[KESTREL_N_SPECIFIC_EVENTS] = {
    KESTREL_SYSCALL_EVENTS(SCHEMA_EVENT_REGISTER_LEN)};
#undef SCHEMA_EVENT_REGISTER_LEN

#endif /* KESTREL_BPF_SCHEMA_TABLES_H */
