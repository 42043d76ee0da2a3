/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fixed-width types for headers read by both the probe and user space. The
 * probe gets them from vmlinux.h; user space from the UAPI headers.
 */
#ifndef KESTREL_SHARED_KERNEL_TYPES_H
#define KESTREL_SHARED_KERNEL_TYPES_H

#if !defined(__bpf__)
#include <linux/types.h>
#endif

#endif /* KESTREL_SHARED_KERNEL_TYPES_H */
