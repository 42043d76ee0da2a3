// SPDX-License-Identifier: GPL-2.0-only
/*
 * The single definition of the .bss control block every other object of the
 * probe declares extern (see helpers/base/control_block.h). In array mode the map
 * is defined here as well as, __weak, wherever it is used.
 */
#define KESTREL_CONTROL_BLOCK_DEFINITION
#include "../helpers/base/control_block.h"

char LICENSE[] SEC("license") = "GPL";
