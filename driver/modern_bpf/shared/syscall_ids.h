/* SPDX-License-Identifier: Apache-2.0 */
/* KESTREL_NR_<name>: syscall ids by name, from the one syscall table. */
#ifndef KESTREL_SHARED_SYSCALL_IDS_H
#define KESTREL_SHARED_SYSCALL_IDS_H

#include "syscall_table_x86_64.h"

#define KESTREL_SYSCALL_ID_ENTRY(id, name) KESTREL_NR_##name = id,
enum kestrel_syscall_id { KESTREL_SYSCALLS_X86_64(KESTREL_SYSCALL_ID_ENTRY) };
#undef KESTREL_SYSCALL_ID_ENTRY

#endif /* KESTREL_SHARED_SYSCALL_IDS_H */
