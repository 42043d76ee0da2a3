// Rules made up for the engine bench: many rules that never match the
// stored stream, to show what the number of rules costs per event.
#ifndef KESTREL_TOOLS_BENCH_GENERATED_RULES_H_
#define KESTREL_TOOLS_BENCH_GENERATED_RULES_H_

#include <string>

namespace kestrel::bench {

enum class GeneratedRuleKind {
  // On event types the stored stream never has (mkdir, unlink, mprotect ...):
  // the index by event type must keep them off every event.
  kAbsentType,
  // `evt.type = openat and proc.name = gen_proc_NNNN and fd.name startswith
  // /gen/NNNN/`: met by every openat, matched by none.
  kOpenat,
  // `evt.type = openat and fd.name contains /gen-NNNN/`: a substring no
  // path of the stream has, and no equality or affix to look rules up by.
  kOpenatContains,
};

// `count` rules of `kind` as a Falco-format rules file.
std::string GeneratedRulesYaml(int count, GeneratedRuleKind kind);

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_GENERATED_RULES_H_
