/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capture settings read by the probe on every interesting syscall and written
 * by user space through the mmapped .bss, never through bpf().
 *
 * Torn reads: user space publishes a whole struct at a time with a seqlock
 * over two slots (see kestrel_settings_store). The writer always fills the
 * slot the probe is not reading, bumps that slot's sequence around the copy
 * and then flips `active`; the probe copies the active slot and retries if
 * its sequence moved. A probe therefore acts either on the old struct or the
 * new one, never on a mix.
 */
#ifndef KESTREL_SHARED_CAPTURE_SETTINGS_H
#define KESTREL_SHARED_CAPTURE_SETTINGS_H

#include "kernel_types.h"

struct kestrel_capture_settings {
	__u64 boot_time_ns; /* wall-clock time of boot, to print ts_ns */
	__u32 snaplen;	    /* bytes of buffers/strings kept per parameter */
	__u32 own_tgid;	    /* never trace this process (Kestrel itself) */
	__u32 target_tgid;  /* trace only this process; 0 = every process */
	__u8 drop_failed;   /* skip syscalls that returned an error */
	__u8 reserved[3];
	__u8 capture_io_data; /* copy read/write data (up to snaplen) into records */
};

struct kestrel_settings_slot {
	__u32 seq; /* odd while the slot is being written */
	__u32 reserved;
	struct kestrel_capture_settings settings;
};

struct kestrel_settings_store {
	__u32 active; /* index of the slot readers use */
	__u32 reserved;
	struct kestrel_settings_slot slots[2];
};

#endif /* KESTREL_SHARED_CAPTURE_SETTINGS_H */
