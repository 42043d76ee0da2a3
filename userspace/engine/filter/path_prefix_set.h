// `pmatch`'s operand: a set of directory prefixes, matched at path
// component boundaries (/etc matches /etc and /etc/passwd, not /etcetera)
// with one hash lookup per component of the path tested. As in Falco, a
// prefix component may be a glob (`*`, `?`, `[...]`), matched against one
// component of the path: /opt/*/bin matches /opt/app/bin/tool.
#ifndef KESTREL_ENGINE_FILTER_PATH_PREFIX_SET_H_
#define KESTREL_ENGINE_FILTER_PATH_PREFIX_SET_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"

namespace kestrel::engine::filter {

class PathPrefixSet {
 public:
  // Adds `prefix`; trailing slashes do not matter ("/etc/" is "/etc").
  void Add(std::string_view prefix);

  // Whether some prefix is `path` itself or a directory above it.
  bool Matches(std::string_view path) const;

  bool empty() const { return prefixes_.empty() && globs_.empty() && !root_; }

 private:
  // Whether the components of `pattern` match the first ones of `path`'s.
  static bool GlobPrefixMatches(const std::vector<std::string>& pattern,
                                const std::vector<std::string>& path);

  absl::flat_hash_set<std::string> prefixes_;
  // Prefixes with a glob component, split at '/' (empty components
  // dropped, as Falco splits them).
  std::vector<std::vector<std::string>> globs_;
  bool root_ = false;  // "/" was added: every absolute path matches
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_PATH_PREFIX_SET_H_
