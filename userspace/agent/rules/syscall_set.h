// Which syscalls `kestrel run` has the probe capture, and why each one:
// the syscalls the enabled rules can match, plus what the engine's state
// needs, adjusted by Falco's base_syscalls.custom_set and .repair.
#ifndef KESTREL_AGENT_RULES_SYSCALL_SET_H_
#define KESTREL_AGENT_RULES_SYSCALL_SET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/rules/priority.h"

namespace kestrel::agent {

// What one enabled rule can match.
struct RuleSyscalls {
  std::string rule;
  std::vector<uint32_t> syscalls;
  bool any = false;  // no evt.type constraint: every syscall
  engine::rules::Priority priority = engine::rules::Priority::kDebug;
};

struct ChosenSyscall {
  uint32_t id;
  std::vector<std::string> reasons;  // `rule "X"`, `state`, `base_syscalls.custom_set` ...
};

// The set, by increasing id, as Falco builds it:
//  - custom_set empty: the rules' syscalls and the state's
//    (engine::StateSyscalls());
//  - custom_set with names: the rules' syscalls and those names instead of
//    the state's, plus the state's again when `repair` is on (Kestrel's
//    state set is already the smallest that keeps the thread table right);
//  - `all` (base_syscalls.all): every syscall as well;
//  - "!name" entries are removed from the result whatever put them in.
// Names that are not syscalls are skipped, one line each in `warnings`.
std::vector<ChosenSyscall> ChooseSyscalls(const std::vector<RuleSyscalls>& rules,
                                          const std::vector<std::string>& custom_set, bool repair,
                                          std::vector<std::string>& warnings, bool all = false);

// One line per syscall: its name, two spaces, its reasons ("openat  rule
// \"X\", state"); past three rules, "and N more rules".
std::string FormatSyscallSet(const std::vector<ChosenSyscall>& set);

// "getppid, read" for `ids`, and past `named` of them "..., and N more".
std::string SyscallNameList(const std::vector<uint32_t>& ids, size_t named);

// The ids of `set`, in its order.
std::vector<uint32_t> SyscallIds(const std::vector<ChosenSyscall>& set);

// The probe's table (pman_enforce_sc_set): 1 for each syscall of `set`.
std::vector<uint8_t> SyscallTable(const std::vector<ChosenSyscall>& set, size_t table_size);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_SYSCALL_SET_H_
