#include "engine/filter/path_prefix_set.h"

#include "engine/filter/scanner.h"

namespace kestrel::engine::filter {

void PathPrefixSet::Add(std::string_view prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.remove_suffix(1);
  if (prefix == "/") {
    root_ = true;
    return;
  }
  if (!prefix.empty()) prefixes_.insert(std::string(prefix));
}

bool PathPrefixSet::Matches(std::string_view path) const {
  if (root_ && !path.empty() && path.front() == '/') return true;
  if (prefixes_.contains(Sv(path))) return true;
  for (size_t i = 1; i < path.size(); ++i) {
    if (path[i] == '/' && prefixes_.contains(Sv(path.substr(0, i)))) return true;
  }
  return false;
}

}  // namespace kestrel::engine::filter
