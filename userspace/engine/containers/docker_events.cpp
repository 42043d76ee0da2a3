#include "engine/containers/docker_events.h"

#include <yaml-cpp/yaml.h>

#include <exception>

namespace kestrel::engine::containers {
namespace {
namespace docker_events_json {

std::string ScalarOf(const YAML::Node& map, const char* key) {
  if (!map.IsMap()) return {};
  const YAML::Node value = map[key];
  return value.IsDefined() && value.IsScalar() ? value.Scalar() : std::string();
}

}  // namespace docker_events_json
}  // namespace

bool IsContainerId(const std::string& s) {
  if (s.size() != 64) return false;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::optional<ContainerEvent> ParseDockerEvent(std::string_view line) {
  using docker_events_json::ScalarOf;
  try {
    const YAML::Node event = YAML::Load(std::string(line));
    if (!event.IsMap()) return std::nullopt;
    const std::string type = ScalarOf(event, "Type");
    if (!type.empty() && type != "container") return std::nullopt;
    ContainerEvent e;
    e.action = ScalarOf(event, "Action");
    if (e.action.empty()) e.action = ScalarOf(event, "status");
    const YAML::Node actor = event["Actor"];
    e.id = actor.IsDefined() ? ScalarOf(actor, "ID") : std::string();
    if (e.id.empty()) e.id = ScalarOf(event, "id");
    if (e.action.empty() || !IsContainerId(e.id)) return std::nullopt;
    return e;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace kestrel::engine::containers
