#include "controller_cgroups.h"

#include <iterator>
#include <optional>

namespace kestrel::engine::state {
namespace {

// The probe's controllers in its order (cgroup_paths.h), and the name v1
// gives each in /proc (io is blkio there).
struct ProbeController {
  std::string_view name;
  std::string_view v1_name;
};
constexpr ProbeController kProbeControllers[] = {
    {"cpuset", "cpuset"}, {"cpu", "cpu"},       {"cpuacct", "cpuacct"},
    {"io", "blkio"},      {"memory", "memory"},
};

// Calls `visit` with each piece of `text` between `sep`s (absl's splitter
// takes its own string_view, not std's, with this abseil).
template <typename Visit>
void CgroupsForEachPiece(std::string_view text, char sep, Visit visit) {
  while (true) {
    const size_t at = text.find(sep);
    visit(text.substr(0, at));
    if (at == std::string_view::npos) return;
    text.remove_prefix(at + 1);
  }
}

// Whether /proc/cgroups (a header line, then "name hierarchy count
// enabled") lists `v1_name`.
bool KernelHasController(std::string_view proc_cgroups, std::string_view v1_name) {
  if (proc_cgroups.empty()) return true;
  bool found = false;
  CgroupsForEachPiece(proc_cgroups, '\n', [&](std::string_view line) {
    if (line.substr(0, line.find_first_of(" \t")) == v1_name) found = true;
  });
  return found;
}

}  // namespace

std::vector<std::string> ControllerCgroupsFromProcFiles(std::string_view proc_pid_cgroup,
                                                        std::string_view proc_cgroups) {
  std::optional<std::string_view> unified;
  // Each controller's v1 path, by its place in kProbeControllers.
  std::optional<std::string_view> v1[std::size(kProbeControllers)];
  CgroupsForEachPiece(proc_pid_cgroup, '\n', [&](std::string_view line) {
    // "hierarchy:controllers:path": the path may itself hold colons.
    const size_t first = line.find(':');
    if (first == std::string_view::npos) return;
    const size_t second = line.find(':', first + 1);
    if (second == std::string_view::npos) return;
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const std::string_view path = line.substr(second + 1);
    if (line.substr(0, first) == "0" && controllers.empty()) {
      unified = path;
      return;
    }
    CgroupsForEachPiece(controllers, ',', [&](std::string_view c) {
      for (size_t i = 0; i < std::size(kProbeControllers); ++i) {
        if (c == kProbeControllers[i].v1_name) v1[i] = path;
      }
    });
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < std::size(kProbeControllers); ++i) {
    const ProbeController& c = kProbeControllers[i];
    std::optional<std::string_view> path = v1[i];
    if (!path && KernelHasController(proc_cgroups, c.v1_name)) path = unified;
    if (!path) continue;
    std::string entry(c.name);
    entry.push_back('=');
    entry.append(*path);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace kestrel::engine::state
