// `kestrel completion bash`: a bash completion script generated from the
// CLI11 definitions of every verb, so it never lags behind the flags.
#ifndef KESTREL_CLI_BASH_COMPLETION_H_
#define KESTREL_CLI_BASH_COMPLETION_H_

#include <string>
#include <vector>

#include "kestrel/common/verb.h"

namespace kestrel::cli {

// The script: defines `_kestrel` and registers it with `complete -F` for
// `kestrel`. `top_flags` are the flags `kestrel` itself takes (--help ...).
std::string BashCompletionScript(const std::vector<Verb>& verbs,
                                 const std::vector<std::string>& top_flags);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_BASH_COMPLETION_H_
