#include "path_resolution.h"

namespace kestrel::engine {
namespace {

// Appends the components of `path` to `out` (absolute, no trailing '/').
void AppendComponents(std::string& out, std::string_view path) {
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    path.remove_prefix(slash == std::string_view::npos ? path.size() : slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      const size_t last = out.rfind('/');
      out.resize(last == std::string::npos ? 0 : last);
      continue;
    }
    out.push_back('/');
    out.append(part);
  }
}

}  // namespace

std::string ResolvePath(std::string_view base, std::string_view path) {
  std::string out;
  if (path.empty() || path.front() != '/') {
    if (base.empty() || base.front() != '/') return out;
    out.reserve(base.size() + path.size() + 1);
    AppendComponents(out, base);
  }
  AppendComponents(out, path);
  if (out.empty()) out.push_back('/');
  return out;
}

}  // namespace kestrel::engine
