// Which syscalls a condition can match, from its evt.type checks, the way
// Falco's event-type analysis reads them: `evt.type = X` and `evt.type in
// (...)` narrow, `!=` widens to all but X, `and` intersects, `or` unites,
// `not` turns both around, and any other check leaves the set alone (it
// matches some events of every type, and so does its negation).
#ifndef KESTREL_ENGINE_RULES_SYSCALL_ANALYSIS_H_
#define KESTREL_ENGINE_RULES_SYSCALL_ANALYSIS_H_

#include <cstdint>
#include <vector>

#include "engine/filter/ast.h"

namespace kestrel::engine::rules {

struct SyscallSet {
  std::vector<uint32_t> syscalls;  // sorted; empty when `any`
  bool any = false;                // every syscall (the condition does not constrain evt.type)
};

// `condition` has its macros and lists substituted. Names that are not
// syscalls (procexit, container ...) match no syscall. With `fold_evt_num`,
// comparisons of evt.num (from 1) with a number decided by that alone are
// folded as Falco folds them: `evt.num = 0` matches nothing, `evt.num > 0`
// everything.
SyscallSet AnalyzeSyscalls(const filter::Expr& condition, bool fold_evt_num = true);

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_SYSCALL_ANALYSIS_H_
