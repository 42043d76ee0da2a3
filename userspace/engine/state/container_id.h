// Which container a process runs in, from its cgroup v2 path, the way
// container runtimes name their cgroups. Falco's `container.id` is the
// first 12 hexadecimal digits of the runtime's 64-digit id; processes of
// the host have the id "host".
#ifndef KESTREL_ENGINE_STATE_CONTAINER_ID_H_
#define KESTREL_ENGINE_STATE_CONTAINER_ID_H_

#include <string>
#include <string_view>

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

// Reads the container from a cgroup v2 path such as
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

// The cgroup v2 path in a /proc/PID/cgroup file's text (its "0::" line),
// or empty when there is none (a cgroup v1-only host).
std::string_view CgroupV2PathFromProcFile(std::string_view proc_cgroup);

}  // namespace kestrel::engine::state

#endif  // KESTREL_ENGINE_STATE_CONTAINER_ID_H_
