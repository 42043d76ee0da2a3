// Whether this kernel runs ia32 syscalls at all. When it cannot, the probe
// leaves the compat test out of every syscall's fast path.
#ifndef KESTREL_LIBPMAN_IA32_SYSCALLS_H_
#define KESTREL_LIBPMAN_IA32_SYSCALLS_H_

namespace kestrel::pman {

// False only when a child's `int $0x80` was refused with SIGSEGV, which is
// what a kernel built without ia32 emulation, or with it turned off at
// boot, does. Any other outcome (success, or a seccomp kill of this
// process's own filter) answers true, so the probe never skips the test
// where ia32 calls could happen. The answer is computed once.
bool KernelRunsIa32Syscalls();

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_IA32_SYSCALLS_H_
