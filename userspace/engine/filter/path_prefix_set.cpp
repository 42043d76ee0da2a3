#include "engine/filter/path_prefix_set.h"

#include <fnmatch.h>

#include "engine/filter/scanner.h"

namespace kestrel::engine::filter {
namespace {

std::vector<std::string> PathComponents(std::string_view path) {
  std::vector<std::string> parts;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    if (!part.empty()) parts.emplace_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

}  // namespace

void PathPrefixSet::Add(std::string_view prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.remove_suffix(1);
  if (prefix == "/") {
    root_ = true;
    return;
  }
  if (prefix.find_first_of("?*[") != std::string_view::npos) {
    globs_.push_back(PathComponents(prefix));
    return;
  }
  if (!prefix.empty()) prefixes_.insert(std::string(prefix));
}

bool PathPrefixSet::GlobPrefixMatches(const std::vector<std::string>& pattern,
                                      const std::vector<std::string>& path) {
  if (pattern.size() > path.size()) return false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    // One component against one: no '/' on either side.
    if (fnmatch(pattern[i].c_str(), path[i].c_str(), 0) != 0) return false;
  }
  return true;
}

bool PathPrefixSet::Matches(std::string_view path) const {
  if (root_ && !path.empty() && path.front() == '/') return true;
  if (prefixes_.contains(Sv(path))) return true;
  for (size_t i = 1; i < path.size(); ++i) {
    if (path[i] == '/' && prefixes_.contains(Sv(path.substr(0, i)))) return true;
  }
  if (globs_.empty()) return false;
  // A path holding a NUL cannot be handed to fnmatch whole; no glob matches it.
  if (path.find('\0') != std::string_view::npos) return false;
  const std::vector<std::string> components = PathComponents(path);
  for (const std::vector<std::string>& pattern : globs_) {
    if (GlobPrefixMatches(pattern, components)) return true;
  }
  return false;
}

}  // namespace kestrel::engine::filter
