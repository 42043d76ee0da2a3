// Falco's --support: what a bug report needs, as one JSON document.
#ifndef KESTREL_AGENT_RULES_SUPPORT_REPORT_H_
#define KESTREL_AGENT_RULES_SUPPORT_REPORT_H_

#include <string>
#include <string_view>

#include "agent/config/run_config.h"
#include "agent/rules/run_rules.h"

namespace kestrel::agent {

// {"version", "engine_info": {engine_version, libbpf_version, libpman_abi},
// "system_info": uname's, "config": RunConfigJson, "rules_files": [{name,
// size, sha256} per file read, or {name, error}]}, and a newline. The rules
// files' content is not copied: its digest says which text was loaded.
std::string SupportDocument(std::string_view version, const RunConfig& config,
                            const RunRulesOptions& rules);

// The webserver's /versions: {"kestrel_version", "engine_version",
// "libbpf_version", "libpman_abi", "kernel": uname's release}, one line.
std::string VersionsDocument(std::string_view version);

// "0.57.0": the rules engine version Kestrel reports as Falco's.
std::string EngineVersion();

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_RULES_SUPPORT_REPORT_H_
