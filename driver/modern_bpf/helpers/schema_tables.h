/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The event schema expanded into read-only tables the probe indexes at run
 * time: which event a syscall maps to, and how to fill each parameter.
 */
#ifndef KESTREL_BPF_SCHEMA_TABLES_H
#define KESTREL_BPF_SCHEMA_TABLES_H

#include "vmlinux.h"

#include "../shared/event_types.h"
#include "../shared/syscall_ids.h"

struct param_desc {
	__u8 type;   /* enum kestrel_param_type */
	__u8 source; /* enum kestrel_param_source */
};

#define SCHEMA_SYSCALL_ENTRY(name, syscall, params) [KESTREL_NR_##syscall] = KESTREL_EVT_##name,
static const __u16 syscall_event[KESTREL_SYSCALL_TABLE_SIZE] = {
    KESTREL_SYSCALL_EVENTS(SCHEMA_SYSCALL_ENTRY)};
#undef SCHEMA_SYSCALL_ENTRY

#define SCHEMA_EVENT_INDEX(type) ((type)-KESTREL_EVT_SYSCALL_BASE - 1)
#define SCHEMA_N_EVENTS		 (KESTREL_EVT_TYPE_MAX - KESTREL_EVT_SYSCALL_BASE - 1)

#define SCHEMA_PARAM_DESC(name, type, source, flag_set) {type, source},
#define SCHEMA_EVENT_PARAMS(name, syscall, params)                                                 \
	[SCHEMA_EVENT_INDEX(KESTREL_EVT_##name)] = {params(SCHEMA_PARAM_DESC)},
static const struct param_desc event_params[SCHEMA_N_EVENTS][KESTREL_MAX_EVENT_PARAMS] = {
    KESTREL_SYSCALL_EVENTS(SCHEMA_EVENT_PARAMS)};
#undef SCHEMA_EVENT_PARAMS
#undef SCHEMA_PARAM_DESC

#define SCHEMA_EVENT_NPARAMS(name, syscall, params)                                                \
	[SCHEMA_EVENT_INDEX(KESTREL_EVT_##name)] = KESTREL_NPARAMS_##name,
static const __u8 event_nparams[SCHEMA_N_EVENTS] = {KESTREL_SYSCALL_EVENTS(SCHEMA_EVENT_NPARAMS)};
#undef SCHEMA_EVENT_NPARAMS

#endif /* KESTREL_BPF_SCHEMA_TABLES_H */
