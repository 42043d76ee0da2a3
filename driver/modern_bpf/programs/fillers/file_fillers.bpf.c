// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of file events. Each program is reached by tail call
 * from the dispatcher after the table-driven parameters are written.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/path_reader.h"
#include "../../helpers/record_builder.h"
#include "../../helpers/task_files.h"

SEC("tp_btf/sys_exit")
int BPF_PROG(fill_OPENAT, struct pt_regs *regs, long ret)
{
	struct scratch_area *s = scratch_area();
	struct file *f;

	if (!s || s->type != KESTREL_EVT_OPENAT)
		return 0;
	f = file_from_fd(ret);
	if (f) {
		rb_path(s, &f->f_path);
		rb_u32(s, file_dev(f));
		rb_u64(s, file_ino(f));
	} else {
		/* No file: keep the name the caller asked for. */
		rb_user_str(s, (const void *)regs->si, KESTREL_MAX_PATH);
		rb_u32(s, 0);
		rb_u64(s, 0);
	}
	rb_submit(s);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
