// Which container a process runs in, from its cgroup paths, the way
// container runtimes name their cgroups. Falco's `container.id` is the
// first 12 hexadecimal digits of the runtime's 64-digit id; processes of
// the host have the id "host".
#ifndef KESTREL_ENGINE_STATE_CONTAINER_ID_H_
#define KESTREL_ENGINE_STATE_CONTAINER_ID_H_

#include <string>
#include <string_view>
#include <vector>

namespace kestrel::engine::state {

enum class ContainerRuntime { kHost, kDocker, kContainerd, kCrio, kPodman, kKubernetes };

// Lower-case name of a runtime, as `container.type` prints it ("docker",
// "containerd", "cri-o", "podman"; "cri" where only the kubepods layout says
// it is a Kubernetes container; "host").
std::string_view ContainerRuntimeName(ContainerRuntime runtime);

struct ContainerId {
  ContainerRuntime runtime = ContainerRuntime::kHost;
  std::string id = "host";  // 12 hex digits, or "host"
  std::string full_id;      // the runtime's 64 hex digits; empty on the host

  bool is_host() const { return runtime == ContainerRuntime::kHost; }
};

// Reads the container from a cgroup path (v2, or a v1 controller's) such as
//   /system.slice/docker-<64 hex>.scope                  (docker, systemd driver)
//   /docker/<64 hex>                                     (docker, cgroupfs driver)
//   /kubepods.slice/.../cri-containerd-<64 hex>.scope    (containerd)
//   /kubepods.slice/.../crio-<64 hex>.scope              (cri-o)
//   /kubepods/besteffort/pod<uid>/<64 hex>               (kubelet, cgroupfs driver)
//   /machine.slice/libpod-<64 hex>.scope[/container]     (podman)
// The innermost component that names a container wins, so a container's
// own nested cgroups still resolve to it. Anything else (including
// podman's `libpod-conmon-<id>.scope` monitor, which runs on the host) is
// the host.
ContainerId ContainerIdFromCgroupPath(std::string_view cgroup_path);

// Of a task's cgroup paths (one per hierarchy: the unified v2 one and each
// v1 controller's, in any order), the one its container is read from: the
// first that names a container, else the first. On a v1 or hybrid host a
// runtime may place a container in v1 controllers only, leaving the
// unified path at "/".
std::string_view ContainerCgroupPath(const std::vector<std::string_view>& paths);

// The same for a /proc/PID/cgroup file's text ("0::/path" for v2,
// "N:controllers:/path" for v1), the v2 line first; empty when it has no
// line.
std::string_view ContainerCgroupPathFromProcFile(std::string_view proc_cgroup);

}  // namespace kestrel::engine::state

#endif  // KESTREL_ENGINE_STATE_CONTAINER_ID_H_
