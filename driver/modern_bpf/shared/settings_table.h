/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The settings table: the one description of every capture setting.
 *
 * Everything else is generated from it: struct kestrel_capture_settings
 * (capture_settings.h, in row order, so the order of the rows is ABI), the
 * part of the settings the probe keeps in its scratch area for fillers
 * (helpers/maps.h), libpman's validation and load-time defaults, and
 * kestrel's setting keys and command-line flags.
 *
 *   KESTREL_SETTINGS_TABLE(ROW): ROW(field, key, flag, kind, ctype, count,
 *   access, scratch, def, min, max, help), one per setting:
 *     field    the struct member (a PORT_RANGE row's members are
 *              field##_lo and field##_hi)
 *     key      the name `kestrel settings get|set` uses
 *     flag     the long command-line flag without "--", "" for none
 *     kind     UINT (a number in min..max), BOOL (0 or 1), ID_LIST (count
 *              ids in min..max, 0 marks an unused slot), PORT_RANGE (two
 *              ports, lo <= hi, hi = 0 = no range)
 *     ctype    the type of the member (of one element for ID_LIST)
 *     count    elements of an ID_LIST; 1 otherwise
 *     access   USER (anyone may set it), LIBPMAN (libpman sets it; shown
 *              but not settable from the command line), READ_ONLY (set at
 *              load), DERIVED (computed when libpman publishes, not shown)
 *     scratch  IN_SCRATCH if the fillers need it after the dispatcher's
 *              tail call, else NOT_IN_SCRATCH
 *     def      the value libpman publishes at load
 *     min, max the bounds a value must be within
 *     help     one line for --help and the docs
 */
#ifndef KESTREL_SHARED_SETTINGS_TABLE_H
#define KESTREL_SHARED_SETTINGS_TABLE_H

#include "kernel_types.h"
#include "record_format.h"

/* Bounds of the target set: the probe scans every slot with plain loads on
 * each interesting syscall, so the set stays small. */
#define KESTREL_MAX_TARGET_TGIDS   8
#define KESTREL_MAX_TARGET_CGROUPS 4

/* The probe keeps at most this much of one buffer parameter, whatever the
 * snaplen asks for, so snaplen cannot usefully go higher. */
#define KESTREL_MAX_SNAPLEN KESTREL_MAX_BUFFER_PARAM_BYTES

/* pids stay below pid_max, which is at most PID_MAX_LIMIT (4 Mi on 64-bit). */
#define KESTREL_MAX_TGID (4U * 1024 * 1024 - 1)

#define KESTREL_U16_MAX 0xffffULL
#define KESTREL_U32_MAX 0xffffffffULL
#define KESTREL_U64_MAX 0xffffffffffffffffULL

/* clang-format off */
#define KESTREL_SETTINGS_TABLE(ROW)                                                                \
	ROW(boot_time_ns, "boot_time_ns", "", UINT, __u64, 1, READ_ONLY, NOT_IN_SCRATCH,           \
	    0, 0, KESTREL_U64_MAX,                                                                 \
	    "wall-clock time of boot in ns, added to ts_ns when printing (set at load)")           \
	ROW(snaplen, "snaplen", "snaplen", UINT, __u32, 1, USER, IN_SCRATCH,                       \
	    80, 0, KESTREL_MAX_SNAPLEN,                                                            \
	    "bytes of I/O data kept per buffer parameter")                                         \
	ROW(own_tgid, "own_tgid", "", UINT, __u32, 1, LIBPMAN, NOT_IN_SCRATCH,                     \
	    0, 0, KESTREL_MAX_TGID,                                                                \
	    "never trace this process: the one that loaded the probe (0 = none)")                  \
	ROW(target_tgid, "target_tgid", "pid", UINT, __u32, 1, USER, NOT_IN_SCRATCH,               \
	    0, 0, KESTREL_MAX_TGID,                                                                \
	    "trace only this process and the target lists (all unset = every process)")            \
	ROW(drop_failed, "drop_failed", "drop-failed", BOOL, __u8, 1, USER, NOT_IN_SCRATCH,        \
	    0, 0, 1,                                                                               \
	    "skip syscalls that returned an error")                                                \
	ROW(dropping_mode, "dropping_mode", "dropping-mode", BOOL, __u8, 1, USER, NOT_IN_SCRATCH,  \
	    0, 0, 1,                                                                               \
	    "keep only 1 in sampling_ratio droppable syscalls")                                    \
	ROW(capture_io_data, "capture_io_data", "io-data", BOOL, __u8, 1, USER, IN_SCRATCH,        \
	    0, 0, 1,                                                                               \
	    "copy read/write and socket data (up to snaplen) into records")                        \
	ROW(target_lists_set, "target_lists_set", "", BOOL, __u8, 1, DERIVED, NOT_IN_SCRATCH,      \
	    0, 0, 1,                                                                               \
	    "1 if a target list has an id: the probe copies the lists only then")                  \
	ROW(sampling_ratio, "sampling_ratio", "sampling-ratio", UINT, __u32, 1, USER,              \
	    NOT_IN_SCRATCH, 1, 1, KESTREL_U32_MAX,                                                 \
	    "N: in dropping mode keep 1 in N droppable syscalls")                                  \
	ROW(fullcapture_port, "fullcapture_ports", "", PORT_RANGE, __u16, 1, USER, IN_SCRATCH,     \
	    0, 0, KESTREL_U16_MAX,                                                                 \
	    "socket data on ports LO-HI (inclusive) is kept up to the maximum snaplen")            \
	ROW(target_tgids, "target_tgids", "", ID_LIST, __u32, KESTREL_MAX_TARGET_TGIDS, USER,      \
	    NOT_IN_SCRATCH, 0, 1, KESTREL_MAX_TGID,                                                \
	    "also trace these process ids")                                                        \
	ROW(target_cgroups, "target_cgroups", "", ID_LIST, __u64, KESTREL_MAX_TARGET_CGROUPS,      \
	    USER, NOT_IN_SCRATCH, 0, 1, KESTREL_U64_MAX,                                           \
	    "also trace processes in these cgroups (by cgroup id)")
/* clang-format on */

/* The member(s) one row declares, by kind. */
#define KESTREL_SETTING_MEMBER_UINT(field, ctype, count)    ctype field;
#define KESTREL_SETTING_MEMBER_BOOL(field, ctype, count)    ctype field;
#define KESTREL_SETTING_MEMBER_ID_LIST(field, ctype, count) ctype field[count];
#define KESTREL_SETTING_MEMBER_PORT_RANGE(field, ctype, count)                                     \
	ctype field##_lo;                                                                          \
	ctype field##_hi;
#define KESTREL_SETTING_MEMBER(field, key, flag, kind, ctype, count, access, scratch, def, min,    \
			       max, help)                                                          \
	KESTREL_SETTING_MEMBER_##kind(field, ctype, count)

/* The first member of a row: where its value starts. */
#define KESTREL_SETTING_FIRST_UINT(field)	field
#define KESTREL_SETTING_FIRST_BOOL(field)	field
#define KESTREL_SETTING_FIRST_ID_LIST(field)	field
#define KESTREL_SETTING_FIRST_PORT_RANGE(field) field##_lo
#define KESTREL_SETTING_FIRST(kind, field)	KESTREL_SETTING_FIRST_##kind(field)

/* The rows the fillers need, copied into the scratch area by the
 * dispatcher (tail-called fillers cannot see its settings copy). */
#define KESTREL_SCRATCH_MEMBER_IN_SCRATCH(kind, field, ctype, count)                               \
	KESTREL_SETTING_MEMBER_##kind(field, ctype, count)
#define KESTREL_SCRATCH_MEMBER_NOT_IN_SCRATCH(kind, field, ctype, count)
#define KESTREL_SCRATCH_MEMBER(field, key, flag, kind, ctype, count, access, scratch, def, min,    \
			       max, help)                                                          \
	KESTREL_SCRATCH_MEMBER_##scratch(kind, field, ctype, count)

#define KESTREL_SCRATCH_COPY_UINT(dst, src, field) (dst)->field = (src)->field;
#define KESTREL_SCRATCH_COPY_BOOL(dst, src, field) (dst)->field = (src)->field;
#define KESTREL_SCRATCH_COPY_ID_LIST(dst, src, field)                                              \
	__builtin_memcpy((dst)->field, (src)->field, sizeof((dst)->field));
#define KESTREL_SCRATCH_COPY_PORT_RANGE(dst, src, field)                                           \
	(dst)->field##_lo = (src)->field##_lo;                                                     \
	(dst)->field##_hi = (src)->field##_hi;
#define KESTREL_SCRATCH_COPY_IN_SCRATCH(kind, dst, src, field)                                     \
	KESTREL_SCRATCH_COPY_##kind(dst, src, field)
#define KESTREL_SCRATCH_COPY_NOT_IN_SCRATCH(kind, dst, src, field)

/* What a row is, for the user-space code that walks the table. */
enum kestrel_setting_kind {
	KESTREL_SETTING_UINT,
	KESTREL_SETTING_BOOL,
	KESTREL_SETTING_ID_LIST,
	KESTREL_SETTING_PORT_RANGE,
};

enum kestrel_setting_access {
	KESTREL_SETTING_USER,
	KESTREL_SETTING_LIBPMAN,
	KESTREL_SETTING_READ_ONLY,
	KESTREL_SETTING_DERIVED,
};

#endif /* KESTREL_SHARED_SETTINGS_TABLE_H */
