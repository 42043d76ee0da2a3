/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed views of kernel pointers that reach the probe as plain numbers: a
 * struct file read out of the fd array, a struct mount around its vfsmount,
 * a socket behind a file's private_data. Through a view every field is a
 * plain load, which the JIT guards against faults, instead of one
 * bpf_probe_read_kernel call per field; the verifier turns the cast itself
 * into a register move. On a path walk that is most of openat's cost.
 *
 * libbpf 1.1's static linker cannot merge a kfunc extern declared by two
 * objects, so every program that includes this header is compiled in one
 * translation unit (programs/fillers/fillers.bpf.c).
 */
#ifndef KESTREL_BPF_KERNEL_VIEW_H
#define KESTREL_BPF_KERNEL_VIEW_H

#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/* Since Linux 6.2. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/* `ptr` as a read-only `type *` (e.g. kernel_view(struct file, p)). */
#define kernel_view(type, ptr)                                                                     \
	((type *)bpf_rdonly_cast((const void *)(ptr), bpf_core_type_id_kernel(type)))

#endif /* KESTREL_BPF_KERNEL_VIEW_H */
