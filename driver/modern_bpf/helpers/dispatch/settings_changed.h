/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Makes every settings generation visible in the event stream: the first
 * syscall of any kind, on any CPU, that sees a generation not yet reported
 * claims it with a compare-and-swap and emits one settings_changed record.
 * Checked before the interesting-syscall gate, so even a change that turns
 * every syscall off is reported. The cost on the fast path is two loads and
 * a compare.
 */
#ifndef KESTREL_BPF_SETTINGS_CHANGED_H
#define KESTREL_BPF_SETTINGS_CHANGED_H

#include "../build/control_records.h"
#include "../base/maps.h"

static __noinline void emit_settings_changed(struct kestrel_settings_generation *g, __u64 old_gen,
					     __u64 new_gen)
{
	struct kestrel_settings_changed_record r;
	struct kestrel_cpu_counters *counters;
	__u32 cpu;

	/* Another CPU may claim it first; then it is that CPU's to report. */
	if (__sync_val_compare_and_swap(&g->reported, old_gen, new_gen) != old_gen)
		return;
	counters = this_cpu_counters();
	if (!counters)
		return;
	cpu = bpf_get_smp_processor_id();
	control_header(&r.hdr, sizeof(r), KESTREL_EVT_SETTINGS_CHANGED,
		       KESTREL_SETTINGS_CHANGED_NPARAMS, cpu);
	r.param_len[0] = sizeof(r.what);
	r.param_len[1] = sizeof(r.old_generation);
	r.param_len[2] = sizeof(r.new_generation);
	/* Bits a writer adds between its bump and this exchange are reported
	 * one record early, never lost. */
	r.what = __sync_lock_test_and_set(&g->changed, 0);
	r.old_generation = old_gen;
	r.new_generation = new_gen;
	output_record(&r, sizeof(r), cpu, counters);
}

static __always_inline void report_settings_change(struct kestrel_control_block *cb)
{
	__u64 gen = *(volatile __u64 *)&cb->generation.generation;
	__u64 reported = *(volatile __u64 *)&cb->generation.reported;

	if (gen != reported)
		emit_settings_changed(&cb->generation, reported, gen);
}

#endif /* KESTREL_BPF_SETTINGS_CHANGED_H */
