// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of descriptor events (shared/schema/descriptor_events.h).
 * Each program is reached by tail call from the dispatcher after the
 * table-driven parameters are written, and checks the record type first:
 * a stale prog-array slot must never append to another event's record.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/extract/path_reader.h"
#include "../../helpers/extract/task_files.h"

/* Each filler program is named fill_<EVENT> (libpman registers it by that
 * name) and hands its record to one of the functions below. */
#define DESCRIPTOR_FILLER(event, fill)                                                             \
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

/* pipe, pipe2: the two ends the kernel wrote to the caller's int[2], then
 * the pipe's inode from fd1's struct file. A failed call wrote nothing:
 * -1, -1, 0. */
static __always_inline void fill_pipe_ends(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	__s32 fds[2] = {-1, -1};
	struct file *f = NULL;
	__u32 dev;
	__u64 ino = 0;

	if (ret == 0 && bpf_probe_read_user(fds, sizeof(fds), (const void *)regs->di) != 0) {
		fds[0] = -1;
		fds[1] = -1;
	}
	if (ret == 0)
		f = file_from_fd(fds[0]);
	if (f)
		file_dev_ino(f, &dev, &ino);
	rb_u64(s, (__u64)(__s64)fds[0]);
	rb_u64(s, (__u64)(__s64)fds[1]);
	rb_u64(s, ino);
}

/* eventfd, inotify_init: no flags argument, so `flags` is 0. */
static __always_inline void fill_no_flags(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_u32(s, 0);
}

/* Signals 1..32 of the sigset at `user_mask`; 0 when it cannot be read. */
static __always_inline void rb_sigmask_low(struct scratch_area *s, const void *user_mask)
{
	__u32 mask = 0;

	if (bpf_probe_read_user(&mask, sizeof(mask), user_mask) != 0)
		mask = 0;
	rb_u32(s, mask);
}

/* signalfd(fd, mask, sizemask): the mask, then flags, which it lacks. */
static __always_inline void fill_signalfd(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_sigmask_low(s, (const void *)regs->si);
	rb_u32(s, 0);
}

/* signalfd4(fd, mask, sizemask, flags): the mask. */
static __always_inline void fill_signalfd4(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_sigmask_low(s, (const void *)regs->si);
}

/* pidfd_getfd, open_by_handle_at: path, dev and inode of the returned
 * descriptor's struct file; empty and 0 when the call failed. */
static __always_inline void fill_new_fd_file(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	struct file *f = file_from_fd(ret);
	__u32 dev;
	__u64 ino;

	if (f) {
		file_dev_ino(f, &dev, &ino);
		rb_path(s, &f->f_path);
		rb_u32(s, dev);
		rb_u64(s, ino);
	} else {
		rb_empty(s);
		rb_u32(s, 0);
		rb_u64(s, 0);
	}
}

/* x86_64's struct pollfd and struct __kernel_timespec, as the caller lays
 * them out in user memory. */
struct user_pollfd {
	__s32 fd;
	__s16 events;
	__s16 revents;
};

struct user_timespec {
	__s64 tv_sec;
	__s64 tv_nsec;
};

/* A KPT_FDLIST of the first KESTREL_MAX_FDLIST pollfds at `ufds`: each
 * descriptor with the events the kernel returned. Written in place: a count,
 * then (s64 fd, s16 revents) pairs; the list stops at the first entry that
 * cannot be read. */
static __always_inline void rb_poll_fdlist(struct scratch_area *s, const struct user_pollfd *ufds,
					   __u32 nfds)
{
	__u32 off = s->payload_off;
	__u16 n = 0;

	for (__u32 i = 0; i < KESTREL_MAX_FDLIST; i++) {
		struct user_pollfd p;

		if (i >= nfds || bpf_probe_read_user(&p, sizeof(p), &ufds[i]) != 0)
			break;
		*(__s64 *)&s->buf[(off + 2 + i * 10) & RB_MASK] = p.fd;
		*(__s16 *)&s->buf[(off + 10 + i * 10) & RB_MASK] = p.revents;
		n++;
	}
	if (nfds > KESTREL_MAX_FDLIST)
		s->flags |= KESTREL_RECORD_TRUNCATED;
	*(__u16 *)&s->buf[off & RB_MASK] = n;
	rb_commit_param(s, 2 + n * 10);
}

/* poll(fds, nfds, timeout). */
static __always_inline void fill_poll(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_poll_fdlist(s, (const struct user_pollfd *)regs->di, (__u32)regs->si);
}

/* ppoll(fds, nfds, tmo_p, sigmask, sigsetsize). */
static __always_inline void fill_ppoll(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	const void *tmo = (const void *)regs->dx;
	struct user_timespec ts;

	rb_poll_fdlist(s, (const struct user_pollfd *)regs->di, (__u32)regs->si);
	if (tmo && bpf_probe_read_user(&ts, sizeof(ts), tmo) == 0)
		rb_u64(s, (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec);
	else
		rb_empty(s);
	rb_sigmask_low(s, (const void *)regs->r10);
}

DESCRIPTOR_FILLER(PIPE, fill_pipe_ends)
DESCRIPTOR_FILLER(PIPE2, fill_pipe_ends)
DESCRIPTOR_FILLER(EVENTFD, fill_no_flags)
DESCRIPTOR_FILLER(INOTIFY_INIT, fill_no_flags)
DESCRIPTOR_FILLER(SIGNALFD, fill_signalfd)
DESCRIPTOR_FILLER(SIGNALFD4, fill_signalfd4)
DESCRIPTOR_FILLER(PIDFD_GETFD, fill_new_fd_file)
DESCRIPTOR_FILLER(OPEN_BY_HANDLE_AT, fill_new_fd_file)
DESCRIPTOR_FILLER(POLL, fill_poll)
DESCRIPTOR_FILLER(PPOLL, fill_ppoll)
