// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of process events, reached by tail call from the
 * dispatcher after the table-driven parameters are written.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/extract/argv_reader.h"
#include "../../helpers/extract/cgroup_paths.h"
#include "../../helpers/extract/clone_params.h"
#include "../../helpers/extract/creds.h"
#include "../../helpers/extract/exe_facts.h"
#include "../../helpers/build/filler_scratch.h"
#include "../../helpers/extract/path_reader.h"
#include "../../helpers/extract/process_facts.h"
#include "../../helpers/build/record_builder.h"
#include "../../helpers/base/task_ids.h"

/* Falco's PPM_EXE_* bits (the exec family's `flags`). */
#define KESTREL_EXE_WRITABLE	(1 << 0)
#define KESTREL_EXE_UPPER_LAYER (1 << 1)
#define KESTREL_EXE_FROM_MEMFD	(1 << 2)
#define KESTREL_EXE_LOWER_LAYER (1 << 3)

struct exe_facts {
	__u64 ino, ctime_ns, mtime_ns;
	bool writable, memfd, upper_layer, lower_layer;
};

static __always_inline void read_exe_facts(struct exe_facts *f, struct file *exe,
					   const struct cred *cred)
{
	struct inode *inode = exe->f_inode;
	enum file_layer layer;

	f->ino = inode->i_ino;
	f->ctime_ns = inode_ctime_ns(inode);
	f->mtime_ns = inode_mtime_ns(inode);
	f->writable = inode_writable_by(inode, cred);
	f->memfd = file_is_memfd(exe);
	layer = file_overlay_layer(exe);
	f->upper_layer = layer == FILE_LAYER_UPPER;
	f->lower_layer = layer == FILE_LAYER_LOWER;
}

/* The exe's absolute path; a file of no directory (a memfd, whose dentry
 * is its own parent) has no path to walk and is named by its dentry alone,
 * e.g. "memfd:name". */
static __always_inline void rb_exe_path(struct scratch_area *s, struct file *exe)
{
	struct dentry *dentry = exe->f_path.dentry;

	if (dentry == dentry->d_parent && dentry != exe->f_path.mnt->mnt_root) {
		rb_kernel_str(s, dentry->d_name.name, KESTREL_MAX_PATH);
		return;
	}
	rb_path(s, &exe->f_path);
}

/* The exec family's common parameters (KESTREL_PARAMS_EXEC_COMMON). */
static __always_inline void write_exec_params(struct scratch_area *s, long ret, __u64 filename,
					      __u64 argv, __u64 envp)
{
	struct task_struct *task = bpf_get_current_task_btf();
	const struct cred *cred = task->cred;
	struct fs_struct *fs = task->fs;
	struct mm_struct *mm = task->mm;
	struct file *exe = ret == 0 ? mm->exe_file : NULL;
	struct exe_facts facts = {};
	__u32 flags;

	if (exe) {
		read_exe_facts(&facts, exe, cred);
		rb_exec_exe_args(s, mm);
	} else {
		rb_user_exe_args(s, argv);
	}
	rb_u64(s, (__s64)task->pid);
	rb_u64(s, (__s64)task->tgid);
	rb_u64(s, (__s64)task->real_parent->pid);
	rb_path(s, &fs->pwd);
	rb_u64(s, task_fdlimit(task));
	rb_u64(s, task->maj_flt);
	rb_u64(s, task->min_flt);
	rb_u32(s, mm_vm_size_kib(mm));
	rb_u32(s, mm_vm_rss_kib(mm));
	rb_u32(s, mm_vm_swap_kib(mm));
	rb_kernel_str(s, task->comm, TASK_COMM_BYTES);
	rb_cgroups(s, task);
	if (exe)
		rb_exec_env(s, mm);
	else
		rb_user_argv(s, envp);
	rb_u32(s, task_tty(task));
	rb_u64(s, (__s64)task_vpgid(task));
	rb_u32(s, task_loginuid(task));
	flags = (facts.writable ? KESTREL_EXE_WRITABLE : 0) |
		(facts.upper_layer ? KESTREL_EXE_UPPER_LAYER : 0) |
		(facts.memfd ? KESTREL_EXE_FROM_MEMFD : 0) |
		(facts.lower_layer ? KESTREL_EXE_LOWER_LAYER : 0);
	rb_u32(s, flags);
	rb_u64(s, cred_caps(cred, cap_inheritable));
	rb_u64(s, cred_caps(cred, cap_permitted));
	rb_u64(s, cred_caps(cred, cap_effective));
	rb_u64(s, facts.ino);
	rb_u64(s, facts.ctime_ns);
	rb_u64(s, facts.mtime_ns);
	rb_u32(s, cred->euid.val);
	if (exe)
		rb_exe_path(s, exe);
	else
		rb_empty(s);
	rb_u64(s, (__s64)task_pgid(task));
	rb_u32(s, cred->egid.val);
	if (exe)
		rb_exec_filename(s, mm);
	else
		rb_user_str(s, (const void *)filename, KESTREL_MAX_PATH);
	rb_u64(s, (__s64)task->real_parent->tgid);
	rb_u32(s, cred->uid.val);
	rb_u32(s, cred->gid.val);
	rb_u32(s, cred->euid.val);
	rb_u64(s, (__s64)task_sid(task));
	rb_u64(s, bpf_get_current_cgroup_id());
	rb_u32(s, facts.writable);
	rb_u32(s, facts.memfd);
	rb_u32(s, facts.upper_layer);
	rb_u32(s, facts.lower_layer);
	rb_u64(s, task_pidns_init_start_ns(task));
	rb_submit(s);
}

/* execve and execveat: one program (shared/filler_programs.h); execveat's
 * arguments are one register further along, after its dirfd. */
SEC("tp_btf/sys_exit")
int BPF_PROG(fill_exec, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for_any(KESTREL_FILLER_EXEC_EVENTS);

	bool at;

	if (!s)
		return 0;
	at = s->type == KESTREL_EVT_EXECVEAT;
	write_exec_params(s, ret, at ? regs->si : regs->di, at ? regs->dx : regs->si,
			  at ? regs->r10 : regs->dx);
	return 0;
}

/* The clone family at syscall exit: the child's return (res 0) and
 * failures. A caller's successful return was already written by the fork
 * hook (process_fork.bpf.c), before the child could run. One program for
 * the four events (shared/filler_programs.h). */
SEC("tp_btf/sys_exit")
int BPF_PROG(fill_clone, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for_any(KESTREL_FILLER_CLONE_EVENTS);
	struct task_struct *task = bpf_get_current_task_btf();

	if (!s || ret > 0)
		return 0;
	rb_clone_head(s, task);
	rb_path(s, &task->fs->pwd);
	rb_clone_tail(s, regs, task, NULL, ret == 0);
	rb_submit(s);
	return 0;
}

/* The caller's __user_cap_data_struct[2]: two 32-bit words per set. */
struct user_cap_data {
	__u32 effective;
	__u32 permitted;
	__u32 inheritable;
};

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_CAPSET, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_CAPSET);
	struct user_cap_data d[2] = {};
	const struct cred *cred;

	if (!s)
		return 0;
	if (ret == 0) {
		cred = ((struct task_struct *)bpf_get_current_task_btf())->cred;
		rb_u64(s, cred_caps(cred, cap_effective));
		rb_u64(s, cred_caps(cred, cap_permitted));
		rb_u64(s, cred_caps(cred, cap_inheritable));
	} else {
		bpf_probe_read_user(d, sizeof(d), (const void *)regs->si);
		rb_u64(s, d[0].effective | (__u64)d[1].effective << 32);
		rb_u64(s, d[0].permitted | (__u64)d[1].permitted << 32);
		rb_u64(s, d[0].inheritable | (__u64)d[1].inheritable << 32);
	}
	rb_submit(s);
	return 0;
}

/* From <linux/prctl.h>; the kernel headers are not included in BPF
 * programs. */
#define KESTREL_PR_SET_NAME 15
#define KESTREL_PR_GET_NAME 16

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_PRCTL, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_for(KESTREL_EVT_PRCTL);
	struct task_struct *task;

	if (!s)
		return 0;
	if ((int)regs->di == KESTREL_PR_SET_NAME || (int)regs->di == KESTREL_PR_GET_NAME) {
		task = bpf_get_current_task_btf();
		rb_kernel_str(s, task->comm, TASK_COMM_BYTES);
	} else {
		rb_empty(s);
	}
	rb_submit(s);
	return 0;
}
