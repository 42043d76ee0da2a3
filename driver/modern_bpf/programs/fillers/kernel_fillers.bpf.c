// SPDX-License-Identifier: GPL-2.0-only
/*
 * Custom parameters of kernel events, reached by tail call from the
 * dispatcher after the table-driven parameters are written.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "../../helpers/record_builder.h"

char LICENSE[] SEC("license") = "GPL";
