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

// Whether `path` is absolute and already normal (no empty, "." or ".."
// component, no trailing '/'): what resolving it would give back unchanged.
// Most paths a process opens are, and copying them beats rebuilding them.
bool IsNormalAbsolute(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  const size_t n = path.size();
  // One pass over the bytes: after each '/', what follows must start a
  // component other than "" (another '/' or the end), "." and "..".
  for (size_t i = 0; i < n; ++i) {
    if (path[i] != '/') continue;
    if (i + 1 == n) return n == 1;  // a trailing '/' (but "/" itself)
    const char* next = path.data() + i + 1;
    const size_t rest = n - i - 1;
    if (next[0] == '/') return false;
    if (next[0] != '.') continue;
    if (rest == 1 || next[1] == '/') return false;                      // "."
    if (next[1] == '.' && (rest == 2 || next[2] == '/')) return false;  // ".."
  }
  return true;
}

}  // namespace

void ResolvePathInto(std::string& out, std::string_view base, std::string_view path) {
  if (IsNormalAbsolute(path)) {
    out.assign(path);
    return;
  }
  out.clear();
  if (path.empty() || path.front() != '/') {
    if (base.empty() || base.front() != '/') return;
    out.reserve(base.size() + path.size() + 1);
    AppendComponents(out, base);
  }
  AppendComponents(out, path);
  if (out.empty()) out.push_back('/');
}

std::string ResolvePath(std::string_view base, std::string_view path) {
  std::string out;
  ResolvePathInto(out, base, path);
  return out;
}

}  // namespace kestrel::engine
