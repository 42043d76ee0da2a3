// Each controller's cgroup as the probe's `cgroups` parameter gives it
// ("controller=path" for cpuset, cpu, cpuacct, io and memory), read from
// /proc for the threads that predate the capture, so thread.cgroups means
// the same whether a thread was seeded or seen cloning or exec'ing.
#ifndef KESTREL_ENGINE_STATE_CONTROLLER_CGROUPS_H_
#define KESTREL_ENGINE_STATE_CONTROLLER_CGROUPS_H_

#include <string>
#include <string_view>
#include <vector>

namespace kestrel::engine::state {

// From /proc/PID/cgroup's text and /proc/cgroups' (the controllers the
// kernel has; empty: take all five as present). A controller bound to a v1
// hierarchy gets that hierarchy's path; any other the process's unified
// (v2) path, as the probe reads both. Empty when the file names neither.
std::vector<std::string> ControllerCgroupsFromProcFiles(std::string_view proc_pid_cgroup,
                                                        std::string_view proc_cgroups);

}  // namespace kestrel::engine::state

#endif  // KESTREL_ENGINE_STATE_CONTROLLER_CGROUPS_H_
