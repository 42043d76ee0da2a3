/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Everything user space writes while the probe runs, in one struct, so both
 * storage modes (a .bss global or the single value of a BPF_F_MMAPABLE
 * array, see helpers/base/control_block.h) and every process that maps it agree
 * on one layout reached from one base address.
 *
 * One struct-valued entry rather than one map per table: an mmapable array
 * lays each element at an 8-byte stride, so a 1-byte-valued table would
 * waste 7 bytes per syscall id and no longer be a plain byte array.
 */
#ifndef KESTREL_SHARED_CONTROL_BLOCK_H
#define KESTREL_SHARED_CONTROL_BLOCK_H

#include "capture_settings.h"
#include "syscall_table_x86_64.h"

struct kestrel_control_block {
	/* Checked on every syscall: first, next to the generation. */
	struct kestrel_settings_generation generation;
	/* 1 = emit a record for this syscall id. One byte per id so a toggle
	 * is a single store from user space. */
	__u8 interesting_syscalls[KESTREL_SYSCALL_TABLE_SIZE];
	/* Dropping mode's enum kestrel_drop_class per syscall id. */
	__u8 syscall_drop_class[KESTREL_SYSCALL_TABLE_SIZE];
	struct kestrel_settings_store settings_store;
	/* KESTREL_OMIT_* bits: parameters the probe leaves empty because no
	 * reader needs them, to save the cost of filling them. */
	__u32 omitted_params;
	__u32 reserved;
};

/* kestrel_control_block.omitted_params */
/* The kernel-resolved `path` of open, openat, openat2 and creat: a dentry
 * walk on every open. The caller's `name`, dev and ino stay. */
#define KESTREL_OMIT_OPEN_PATH (1U << 0)
#define KESTREL_OMIT_ALL       KESTREL_OMIT_OPEN_PATH

/* Where the block lives, chosen when the probe is loaded. */
enum kestrel_settings_storage {
	KESTREL_STORAGE_BSS = 1,   /* a global in the probe's .bss map */
	KESTREL_STORAGE_ARRAY = 2, /* the one value of a BPF_F_MMAPABLE array */
};

/* Name of the array holding the block in array mode (BPF_OBJ_NAME_LEN). */
#define KESTREL_CONTROL_MAP_NAME "kestrel_control"

#endif /* KESTREL_SHARED_CONTROL_BLOCK_H */
