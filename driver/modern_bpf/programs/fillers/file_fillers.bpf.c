// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of file events. Each program is reached by tail call
 * from the dispatcher after the table-driven parameters are written, and
 * checks the record type first: a stale prog-array slot must never append
 * to another event's record.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/base/control_block.h"
#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/extract/io_data.h"
#include "../../helpers/extract/mm_usage.h"
#include "../../helpers/extract/overlay_layer.h"
#include "../../helpers/extract/path_reader.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/extract/task_files.h"

/* Smallest struct open_how openat2 accepts (flags, mode, resolve). */
#define OPEN_HOW_SIZE_VER0 24

/* Whether user space asked for opens without their kernel-resolved path
 * (KESTREL_OMIT_OPEN_PATH): the dentry walk is about a fifth of the probe's
 * time per openat+close. */
static __always_inline bool open_path_omitted(void)
{
	struct kestrel_control_block *cb = control_block();

	return cb && (cb->omitted_params & KESTREL_OMIT_OPEN_PATH);
}

/* path, dev and inode of the file open returned as `ret`; without a file,
 * the name the caller asked for; an empty path when it is omitted. Returns
 * the file (NULL on failure) for the parameters after these. */
static __always_inline struct file *rb_opened_file(struct scratch_area *s, long ret,
						   const void *user_path)
{
	struct file *f = file_from_fd(ret);
	__u32 dev;
	__u64 ino;

	if (f) {
		file_dev_ino(f, &dev, &ino);
		if (open_path_omitted())
			rb_empty(s);
		else
			rb_path(s, &f->f_path);
		rb_u32(s, dev);
		rb_u64(s, ino);
	} else {
		rb_user_str(s, user_path, KESTREL_MAX_PATH);
		rb_u32(s, 0);
		rb_u64(s, 0);
	}
	return f;
}

/* The path of `fd` from its struct file; empty for a bad fd. */
static __always_inline void rb_fd_path(struct scratch_area *s, long fd)
{
	struct file *f = file_from_fd(fd);

	if (f)
		rb_path(s, &f->f_path);
	else
		rb_empty(s);
}

/* Each filler program is named fill_<EVENT> (libpman registers it by that
 * name) and hands its record to one of the functions below. */
#define FILE_FILLER(event, fill)                                                                   \
	SEC("tp_btf/sys_exit")                                                                     \
	int BPF_PROG(fill_##event, struct pt_regs *regs, long ret)                                 \
	{                                                                                          \
		struct scratch_area *s = scratch_for(KESTREL_EVT_##event);                         \
                                                                                                   \
		if (s) {                                                                           \
			fill(s, regs, ret);                                                        \
			rb_submit(s);                                                              \
		}                                                                                  \
		return 0;                                                                          \
	}

/* open and creat name the file in their first argument. */
static __always_inline void fill_opened_arg0(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	struct file *f = rb_opened_file(s, ret, (const void *)regs->di);

	rb_u32(s, f ? open_facts(f) : 0);
}

/* creat also says which overlay layer the file landed on. */
static __always_inline void fill_creat(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	struct file *f = rb_opened_file(s, ret, (const void *)regs->di);

	rb_u32(s, f ? overlay_creat_layer(f) : 0);
	rb_u32(s, f ? open_facts(f) : 0);
}

/* openat names it in the second, after the dirfd. */
static __always_inline void fill_opened_arg1(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	struct file *f = rb_opened_file(s, ret, (const void *)regs->si);

	rb_u32(s, f ? open_facts(f) : 0);
}

static __always_inline void fill_openat2(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	struct open_how how;
	struct file *f;

	if (regs->r10 >= OPEN_HOW_SIZE_VER0 &&
	    bpf_probe_read_user(&how, OPEN_HOW_SIZE_VER0, (const void *)regs->dx) == 0) {
		rb_u32(s, (__u32)how.flags);
		rb_u32(s, (__u32)how.mode);
		rb_u64(s, how.resolve);
	} else {
		rb_empty(s);
		rb_empty(s);
		rb_empty(s);
	}
	f = rb_opened_file(s, ret, (const void *)regs->si);
	rb_u32(s, f ? open_facts(f) : 0);
}

/* read, write, pread64, pwrite64: the buffer is the second argument. */
static __always_inline void fill_io(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_io_buffer(s, (const void *)regs->si, ret);
}

/* readv, writev: iovec array and count in the second and third. */
static __always_inline void fill_iov(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_iovec_size_and_data(s, (const struct iovec *)regs->si, (int)regs->dx, ret);
}

/* fchmod, fchown, ftruncate: the fd is the first argument. */
static __always_inline void fill_fd_path(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_fd_path(s, (int)regs->di);
}

/* mmap: the caller's memory use once the mapping is made. */
static __always_inline void fill_mm_usage(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_mm_usage(s);
}

FILE_FILLER(OPEN, fill_opened_arg0)
FILE_FILLER(CREAT, fill_creat)
FILE_FILLER(OPENAT, fill_opened_arg1)
FILE_FILLER(OPENAT2, fill_openat2)
FILE_FILLER(READ, fill_io)
FILE_FILLER(WRITE, fill_io)
FILE_FILLER(PREAD64, fill_io)
FILE_FILLER(PWRITE64, fill_io)
FILE_FILLER(READV, fill_iov)
FILE_FILLER(WRITEV, fill_iov)
FILE_FILLER(FCHMOD, fill_fd_path)
FILE_FILLER(FCHOWN, fill_fd_path)
FILE_FILLER(FTRUNCATE, fill_fd_path)
FILE_FILLER(MMAP, fill_mm_usage)
