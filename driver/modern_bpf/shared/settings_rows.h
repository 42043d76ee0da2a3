/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The settings table (settings_table.h) as an array user space walks:
 * libpman validates and defaults from it, kestrel parses, prints and
 * registers flags from it. The probe does not include this file.
 */
#ifndef KESTREL_SHARED_SETTINGS_ROWS_H
#define KESTREL_SHARED_SETTINGS_ROWS_H

#include "capture_settings.h"

struct kestrel_setting_row {
	const char *key;
	const char *flag; /* "" = no command-line flag */
	enum kestrel_setting_kind kind;
	enum kestrel_setting_access access;
	__u32 offset;	 /* of the row's first member */
	__u32 elem_size; /* bytes of one value */
	__u32 count;	 /* values: list slots, 2 for a port range, else 1 */
	__u64 def;
	__u64 min;
	__u64 max;
	const char *help;
};

#define KESTREL_SETTING_COUNT_UINT(count)	1
#define KESTREL_SETTING_COUNT_BOOL(count)	1
#define KESTREL_SETTING_COUNT_ID_LIST(count)	(count)
#define KESTREL_SETTING_COUNT_PORT_RANGE(count) 2

#define KESTREL_SETTING_ROW(field, key, flag, kind, ctype, count, access, scratch, def, min, max,  \
			    help)                                                                  \
	{key,                                                                                      \
	 flag,                                                                                     \
	 KESTREL_SETTING_##kind,                                                                   \
	 KESTREL_SETTING_##access,                                                                 \
	 __builtin_offsetof(struct kestrel_capture_settings, KESTREL_SETTING_FIRST(kind, field)),  \
	 sizeof(ctype),                                                                            \
	 KESTREL_SETTING_COUNT_##kind(count),                                                      \
	 def,                                                                                      \
	 min,                                                                                      \
	 max,                                                                                      \
	 help},

static const struct kestrel_setting_row kestrel_setting_rows[]
    __attribute__((unused)) = {KESTREL_SETTINGS_TABLE(KESTREL_SETTING_ROW)};

#define KESTREL_SETTING_ROWS (sizeof(kestrel_setting_rows) / sizeof(kestrel_setting_rows[0]))

/* Value `i` of `row` in `s` (i < row->count), widened to 64 bits. */
static inline __u64 kestrel_setting_get(const struct kestrel_capture_settings *s,
					const struct kestrel_setting_row *row, __u32 i)
{
	const unsigned char *at = (const unsigned char *)s + row->offset + i * row->elem_size;
	__u8 v8;
	__u16 v16;
	__u32 v32;
	__u64 v64;

	switch (row->elem_size) {
	case 1:
		__builtin_memcpy(&v8, at, 1);
		return v8;
	case 2:
		__builtin_memcpy(&v16, at, 2);
		return v16;
	case 4:
		__builtin_memcpy(&v32, at, 4);
		return v32;
	default:
		__builtin_memcpy(&v64, at, 8);
		return v64;
	}
}

/* Stores `v`, cut to the row's width: callers check the bounds first. */
static inline void kestrel_setting_put(struct kestrel_capture_settings *s,
				       const struct kestrel_setting_row *row, __u32 i, __u64 v)
{
	unsigned char *at = (unsigned char *)s + row->offset + i * row->elem_size;
	__u8 v8 = (__u8)v;
	__u16 v16 = (__u16)v;
	__u32 v32 = (__u32)v;

	switch (row->elem_size) {
	case 1:
		__builtin_memcpy(at, &v8, 1);
		break;
	case 2:
		__builtin_memcpy(at, &v16, 2);
		break;
	case 4:
		__builtin_memcpy(at, &v32, 4);
		break;
	default:
		__builtin_memcpy(at, &v, 8);
		break;
	}
}

#endif /* KESTREL_SHARED_SETTINGS_ROWS_H */
