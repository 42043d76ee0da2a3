// Counts BPF links on the syscall tracepoints that are not the bench's own.
// Another tracer on sys_enter/sys_exit already puts every syscall on the
// kernel's slow path, which hides part of what a first hook costs, so the
// bench reports them next to its figures.
#ifndef KESTREL_TOOLS_BENCH_FOREIGN_HOOKS_H_
#define KESTREL_TOOLS_BENCH_FOREIGN_HOOKS_H_

#include <string>

namespace kestrel::bench {

// Number of links attached to the sys_enter / sys_exit raw tracepoints.
int CountSyscallHookLinks();

// A sentence for the report when there are any, else "".
std::string ForeignHooksNote(const std::string& when, int count);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_FOREIGN_HOOKS_H_
