// SPDX-License-Identifier: GPL-2.0-only
/*
 * The custom fillers, one object: the family files below share the kfunc
 * externs of helpers/base/kernel_view.h, and libbpf 1.1's static linker
 * (bpftool gen object) cannot merge a kfunc extern that two objects
 * declare. Each family file is compiled only through this one.
 */
#include "descriptor_fillers.bpf.c"
#include "file_fillers.bpf.c"
#include "filesystem_fillers.bpf.c"
#include "kernel_fillers.bpf.c"
#include "network_fillers.bpf.c"
#include "process_fillers.bpf.c"
#include "system_fillers.bpf.c"

char LICENSE[] SEC("license") = "GPL";
