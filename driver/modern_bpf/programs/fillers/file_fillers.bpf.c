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

#include "../../helpers/io_data.h"
#include "../../helpers/path_reader.h"
#include "../../helpers/record_builder.h"
#include "../../helpers/task_files.h"

/* Smallest struct open_how openat2 accepts (flags, mode, resolve). */
#define OPEN_HOW_SIZE_VER0 24

/* path, dev and inode of the file open returned as `ret`; without a file,
 * the name the caller asked for. */
static __always_inline void rb_opened_file(struct scratch_area *s, long ret, const void *user_path)
{
	struct file *f = file_from_fd(ret);

	if (f) {
		rb_path(s, &f->f_path);
		rb_u32(s, file_dev(f));
		rb_u64(s, file_ino(f));
	} else {
		rb_user_str(s, user_path, KESTREL_MAX_PATH);
		rb_u32(s, 0);
		rb_u64(s, 0);
	}
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

static __always_inline struct scratch_area *filler_scratch(__u16 type)
{
	struct scratch_area *s = scratch_area();

	return s && s->type == type ? s : NULL;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_OPENAT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = filler_scratch(KESTREL_EVT_OPENAT);

	if (!s)
		return 0;
	rb_opened_file(s, ret, (const void *)regs->si);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_OPEN, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = filler_scratch(KESTREL_EVT_OPEN);

	if (!s)
		return 0;
	rb_opened_file(s, ret, (const void *)regs->di);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_CREAT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = filler_scratch(KESTREL_EVT_CREAT);

	if (!s)
		return 0;
	rb_opened_file(s, ret, (const void *)regs->di);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_OPENAT2, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = filler_scratch(KESTREL_EVT_OPENAT2);
	struct open_how how;

	if (!s)
		return 0;
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
	rb_opened_file(s, ret, (const void *)regs->si);
	rb_submit(s);
	return 0;
}

/* read, write, pread64, pwrite64: the buffer is the second argument. */
static __always_inline int fill_io(__u16 type, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = filler_scratch(type);

	if (!s)
		return 0;
	rb_io_buffer(s, (const void *)regs->si, ret);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_READ, struct pt_regs *regs, long ret)
{
	return fill_io(KESTREL_EVT_READ, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_WRITE, struct pt_regs *regs, long ret)
{
	return fill_io(KESTREL_EVT_WRITE, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PREAD64, struct pt_regs *regs, long ret)
{
	return fill_io(KESTREL_EVT_PREAD64, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PWRITE64, struct pt_regs *regs, long ret)
{
	return fill_io(KESTREL_EVT_PWRITE64, regs, ret);
}

static __always_inline int fill_iov(__u16 type, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = filler_scratch(type);

	if (!s)
		return 0;
	rb_iovec_size_and_data(s, (const struct iovec *)regs->si, (int)regs->dx, ret);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_READV, struct pt_regs *regs, long ret)
{
	return fill_iov(KESTREL_EVT_READV, regs, ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_WRITEV, struct pt_regs *regs, long ret)
{
	return fill_iov(KESTREL_EVT_WRITEV, regs, ret);
}

/* fchmod, fchown, ftruncate: the fd is the first argument. */
static __always_inline int fill_fd_path(__u16 type, struct pt_regs *regs)
{
	struct scratch_area *s = filler_scratch(type);

	if (!s)
		return 0;
	rb_fd_path(s, (int)regs->di);
	rb_submit(s);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_FCHMOD, struct pt_regs *regs, long ret)
{
	return fill_fd_path(KESTREL_EVT_FCHMOD, regs);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_FCHOWN, struct pt_regs *regs, long ret)
{
	return fill_fd_path(KESTREL_EVT_FCHOWN, regs);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_FTRUNCATE, struct pt_regs *regs, long ret)
{
	return fill_fd_path(KESTREL_EVT_FTRUNCATE, regs);
}

char LICENSE[] SEC("license") = "GPL";
