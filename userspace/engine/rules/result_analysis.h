// Whether a condition can match a failed syscall (one that returned a
// negative value). The probe may drop failed calls only when no rule can
// match one, so this reads only what is sure: a conjunct on evt.rawres,
// evt.res or evt.failed that excludes every failure. Anything else may
// match a failure, as Falco, which keeps failed calls, would match it.
#ifndef KESTREL_ENGINE_RULES_RESULT_ANALYSIS_H_
#define KESTREL_ENGINE_RULES_RESULT_ANALYSIS_H_

#include "engine/filter/ast.h"

namespace kestrel::engine::rules {

// `condition` has its macros and lists substituted. True when it is false
// for every event whose result is below 0.
bool MatchesOnlySuccess(const filter::Expr& condition);

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_RESULT_ANALYSIS_H_
