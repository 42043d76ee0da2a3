// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of filesystem query and copy events
 * (shared/schema/filesystem_events.h). Reached by tail call like the file
 * fillers, and like them checks the record type first (scratch_for).
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/extract/io_data.h"

/* quotactl's UAPI (linux/quota.h): vmlinux.h has the structs, not the
 * macros. The subcommand is cmd >> 8, the quota type its low byte. */
#define QUOTA_SUBCMD_SHIFT 8
#define QUOTA_TYPE_MASK	   0xff
#define QUOTA_Q_QUOTAON	   0x800002
#define QUOTA_Q_GETFMT	   0x800004
#define QUOTA_Q_GETINFO	   0x800005
#define QUOTA_Q_SETINFO	   0x800006
#define QUOTA_Q_GETQUOTA   0x800007
#define QUOTA_Q_SETQUOTA   0x800008
#define QUOTA_Q_XGETQUOTA  0x5803 /* XQM_CMD(3) */
#define QUOTA_Q_XSETQLIM   0x5804 /* XQM_CMD(4) */
#define QUOTA_QIF_BLIMITS  1
#define QUOTA_QIF_SPACE	   2
#define QUOTA_QIF_ILIMITS  4
#define QUOTA_QIF_BTIME	   16
#define QUOTA_QIF_ITIME	   32
#define QUOTA_IIF_BGRACE   1
#define QUOTA_IIF_IGRACE   2
#define QUOTA_IIF_FLAGS	   4

/* fsconfig's commands (linux/mount.h) whose value is read. */
#define FSCONFIG_CMD_SET_STRING	    1
#define FSCONFIG_CMD_SET_BINARY	    2
#define FSCONFIG_CMD_SET_PATH	    3
#define FSCONFIG_CMD_SET_PATH_EMPTY 4

/* Each filler program is named fill_<EVENT> (libpman registers it by that
 * name) and hands its record to one of the functions below. */
#define FILESYSTEM_FILLER(event, fill)                                                             \
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

/* getcwd(buf, size): the kernel wrote the path only on success. */
static __always_inline void fill_getcwd(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	if (ret > 0)
		rb_user_str(s, (const void *)regs->di, KESTREL_MAX_PATH);
	else
		rb_empty(s);
}

/* sendfile(out_fd, in_fd, offset, count): the offset as it is now. */
static __always_inline void fill_sendfile(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	__u64 offset = 0;
	const void *offset_ptr = (const void *)regs->dx;

	if (offset_ptr)
		bpf_probe_read_user(&offset, sizeof(offset), offset_ptr);
	rb_u64(s, offset);
}

/* preadv, pwritev: iovec array and count in the second and third. */
static __always_inline void fill_prwv(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	rb_iovec_size_and_data(s, (const struct iovec *)regs->si, (int)regs->dx, ret);
}

/* The quota limits a get/set-quota command carried, only the valid ones. */
static __always_inline void rb_quota_dqblk(struct scratch_area *s, const void *addr, bool read)
{
	struct if_dqblk q = {};

	/* A failed read leaves q zeroed: nothing valid. */
	if (read)
		bpf_probe_read_user(&q, sizeof(q), addr);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_BLIMITS ? q.dqb_bhardlimit : 0);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_BLIMITS ? q.dqb_bsoftlimit : 0);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_SPACE ? q.dqb_curspace : 0);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_ILIMITS ? q.dqb_ihardlimit : 0);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_ILIMITS ? q.dqb_isoftlimit : 0);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_BTIME ? q.dqb_btime : 0);
	rb_u64(s, q.dqb_valid & QUOTA_QIF_ITIME ? q.dqb_itime : 0);
}

/* The grace times and flags a get/set-info command carried. */
static __always_inline void rb_quota_dqinfo(struct scratch_area *s, const void *addr, bool read)
{
	struct if_dqinfo i = {};

	if (read)
		bpf_probe_read_user(&i, sizeof(i), addr);
	rb_u64(s, i.dqi_valid & QUOTA_IIF_BGRACE ? i.dqi_bgrace : 0);
	rb_u64(s, i.dqi_valid & QUOTA_IIF_IGRACE ? i.dqi_igrace : 0);
	rb_u32(s, i.dqi_valid & QUOTA_IIF_FLAGS ? i.dqi_flags : 0);
}

/* quotactl(cmd, special, id, addr); `special` is table-driven. */
static __always_inline void fill_quotactl(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	__u32 cmd = (__u32)regs->di;
	__u32 subcmd = cmd >> QUOTA_SUBCMD_SHIFT;
	__u32 id = (__u32)regs->dx;
	const void *addr = (const void *)regs->r10;
	bool quota_set = subcmd == QUOTA_Q_SETQUOTA;
	bool quota_get = subcmd == QUOTA_Q_GETQUOTA;
	bool info_set = subcmd == QUOTA_Q_SETINFO;
	bool info_get = subcmd == QUOTA_Q_GETINFO;
	__u32 fmt_out = 0;

	if (subcmd == QUOTA_Q_QUOTAON)
		rb_user_str(s, addr, KESTREL_MAX_PATH);
	else
		rb_empty(s);
	rb_quota_dqblk(s, addr, quota_set || (quota_get && ret == 0));
	rb_quota_dqinfo(s, addr, info_set || (info_get && ret == 0));
	if (subcmd == QUOTA_Q_GETFMT && ret == 0)
		bpf_probe_read_user(&fmt_out, sizeof(fmt_out), addr);
	rb_u32(s, fmt_out);
	rb_u32(s, subcmd);
	rb_u32(s, cmd & QUOTA_TYPE_MASK);
	rb_u32(s,
	       quota_set || quota_get || subcmd == QUOTA_Q_XGETQUOTA || subcmd == QUOTA_Q_XSETQLIM
		   ? id
		   : 0);
	rb_u32(s, subcmd == QUOTA_Q_QUOTAON ? id : 0);
}

/* fsconfig(fd, cmd, key, value, aux): the value as the command types it. */
static __always_inline void fill_fsconfig(struct scratch_area *s, struct pt_regs *regs, long ret)
{
	__u32 cmd = (__u32)regs->si;
	const void *value = (const void *)regs->r10;
	int aux = (int)regs->r8;

	if (ret >= 0 && cmd == FSCONFIG_CMD_SET_BINARY && aux > 0)
		rb_user_bytes(s, value, (__u64)aux);
	else
		rb_empty(s);
	if (ret >= 0 && (cmd == FSCONFIG_CMD_SET_STRING || cmd == FSCONFIG_CMD_SET_PATH ||
			 cmd == FSCONFIG_CMD_SET_PATH_EMPTY))
		rb_user_str(s, value, s->snaplen + 1);
	else
		rb_empty(s);
}

FILESYSTEM_FILLER(GETCWD, fill_getcwd)
FILESYSTEM_FILLER(SENDFILE, fill_sendfile)
FILESYSTEM_FILLER(PREADV, fill_prwv)
FILESYSTEM_FILLER(PWRITEV, fill_prwv)
FILESYSTEM_FILLER(QUOTACTL, fill_quotactl)
FILESYSTEM_FILLER(FSCONFIG, fill_fsconfig)
