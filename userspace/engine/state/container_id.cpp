#include "engine/state/container_id.h"

#include <array>
#include <vector>

namespace kestrel::engine::state {
namespace {

constexpr size_t kFullIdLength = 64;
constexpr size_t kShortIdLength = 12;

bool IsLowerHex(std::string_view s) {
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

bool IsFullId(std::string_view s) { return s.size() == kFullIdLength && IsLowerHex(s); }

struct ScopePrefix {
  std::string_view prefix;
  ContainerRuntime runtime;
};

// How runtimes name a container's cgroup: "<prefix><64 hex>", as a systemd
// scope unit ("<prefix><64 hex>.scope") or a plain cgroupfs directory.
constexpr std::array<ScopePrefix, 5> kScopePrefixes = {{
    {"docker-", ContainerRuntime::kDocker},
    {"cri-containerd-", ContainerRuntime::kContainerd},
    {"crio-", ContainerRuntime::kCrio},
    {"libpod-", ContainerRuntime::kPodman},
    {"containerd-", ContainerRuntime::kContainerd},
}};

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    if (!part.empty()) parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

ContainerId Found(ContainerRuntime runtime, std::string_view full_id) {
  ContainerId c;
  c.runtime = runtime;
  c.full_id = std::string(full_id);
  c.id = c.full_id.substr(0, kShortIdLength);
  return c;
}

// The runtime a bare 64-hex component belongs to, from the components
// above it (cgroupfs drivers name no runtime in the leaf).
ContainerRuntime RuntimeOfBareId(const std::vector<std::string_view>& parents) {
  for (const std::string_view p : parents) {
    if (p == "docker") return ContainerRuntime::kDocker;
    if (p == "crio") return ContainerRuntime::kCrio;
    if (p == "libpod_parent" || p == "machine.slice") return ContainerRuntime::kPodman;
    if (p.substr(0, 8) == "kubepods") return ContainerRuntime::kKubernetes;
  }
  return ContainerRuntime::kHost;
}

}  // namespace

std::string_view ContainerRuntimeName(ContainerRuntime runtime) {
  switch (runtime) {
    case ContainerRuntime::kHost:
      return "host";
    case ContainerRuntime::kDocker:
      return "docker";
    case ContainerRuntime::kContainerd:
      return "containerd";
    case ContainerRuntime::kCrio:
      return "cri-o";
    case ContainerRuntime::kPodman:
      return "podman";
    case ContainerRuntime::kKubernetes:
      return "cri";
  }
  return "host";
}

ContainerId ContainerIdFromCgroupPath(std::string_view cgroup_path) {
  const std::vector<std::string_view> parts = SplitPath(cgroup_path);
  for (size_t i = parts.size(); i-- > 0;) {
    std::string_view part = parts[i];
    // systemd drivers name a scope unit, cgroupfs drivers the bare name.
    if (part.size() > 6 && part.substr(part.size() - 6) == ".scope") part.remove_suffix(6);
    if (part.substr(0, 14) == "libpod-conmon-") continue;  // podman's monitor runs on the host
    for (const ScopePrefix& s : kScopePrefixes) {
      if (part.substr(0, s.prefix.size()) != s.prefix) continue;
      const std::string_view id = part.substr(s.prefix.size());
      if (IsFullId(id)) return Found(s.runtime, id);
    }
    if (IsFullId(part)) {
      const std::vector<std::string_view> parents(parts.begin(), parts.begin() + i);
      const ContainerRuntime runtime = RuntimeOfBareId(parents);
      if (runtime != ContainerRuntime::kHost) return Found(runtime, part);
    }
  }
  return ContainerId{};
}

std::string_view ContainerCgroupPath(const std::vector<std::string_view>& paths) {
  for (const std::string_view path : paths) {
    if (!ContainerIdFromCgroupPath(path).is_host()) return path;
  }
  return paths.empty() ? std::string_view() : paths.front();
}

std::string_view ContainerCgroupPathFromProcFile(std::string_view proc_cgroup) {
  std::vector<std::string_view> paths;
  while (!proc_cgroup.empty()) {
    const size_t nl = proc_cgroup.find('\n');
    const std::string_view line = proc_cgroup.substr(0, nl);
    // "hierarchy:controllers:path": the path may itself hold colons.
    const size_t first = line.find(':');
    const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second != std::string_view::npos) {
      const std::string_view path = line.substr(second + 1);
      if (line.substr(0, 3) == "0::") {
        paths.insert(paths.begin(), path);
      } else {
        paths.push_back(path);
      }
    }
    if (nl == std::string_view::npos) break;
    proc_cgroup.remove_prefix(nl + 1);
  }
  return ContainerCgroupPath(paths);
}

}  // namespace kestrel::engine::state
