// Where `kestrel run` finds Kestrel's own rules when neither -r nor the
// config's rules_files names any.
#ifndef KESTREL_AGENT_CONFIG_DEFAULT_RULES_H_
#define KESTREL_AGENT_CONFIG_DEFAULT_RULES_H_

#include <string>

namespace kestrel::agent {

// The source tree's rules/ for a kestrel run from its build tree (so a
// developer's edits take effect without installing), the installed
// share/kestrel/rules otherwise.
std::string DefaultRulesDir();

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONFIG_DEFAULT_RULES_H_
