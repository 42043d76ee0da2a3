// Reading the JSON documents container runtimes answer with (Docker's
// inspect, the CRI's verbose info) through yaml-cpp, which reads JSON as
// YAML's flow style. The accessors never throw on a missing member or a
// member of another type: a runtime's document is taken as it comes.
#ifndef KESTREL_ENGINE_CONTAINERS_RUNTIME_JSON_H_
#define KESTREL_ENGINE_CONTAINERS_RUNTIME_JSON_H_

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kestrel::engine::containers::json {

// `json` parsed; throws YAML::Exception when it is not JSON.
YAML::Node Load(std::string_view json);

// `node`'s member `key`, or an undefined node.
YAML::Node Member(const YAML::Node& node, const char* key);

// The member at `keys`, one level each, or an undefined node.
YAML::Node Path(const YAML::Node& node, std::initializer_list<const char*> keys);

// Whether `node` is a JSON string (not a number, boolean or null).
bool IsString(const YAML::Node& node);

// The string's bytes as the runtime sent them; `fallback` when not a string.
std::string StringOr(const YAML::Node& node, std::string fallback = {});

bool BoolOr(const YAML::Node& node, bool fallback);

// The strings of a JSON array; its other members are skipped.
std::vector<std::string> Strings(const YAML::Node& node);

// A JSON object's string members, sorted by key; the others are skipped.
std::vector<std::pair<std::string, std::string>> Labels(const YAML::Node& labels);

}  // namespace kestrel::engine::containers::json

#endif  // KESTREL_ENGINE_CONTAINERS_RUNTIME_JSON_H_
