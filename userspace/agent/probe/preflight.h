// Checks made before touching the kernel, so a missing prerequisite gets a
// sentence naming it instead of a bare errno from deep inside libbpf.
#ifndef KESTREL_AGENT_PROBE_PREFLIGHT_H_
#define KESTREL_AGENT_PROBE_PREFLIGHT_H_

#include "absl/status/status.h"

namespace kestrel::agent {

// Fails when the kernel BTF cannot be read (KESTREL_BTF_PATH names another
// file) or the process lacks CAP_BPF /
// CAP_PERFMON (CAP_SYS_ADMIN also grants both).
absl::Status CheckCanLoadProbe();

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PROBE_PREFLIGHT_H_
