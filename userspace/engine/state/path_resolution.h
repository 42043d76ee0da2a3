// Absolute paths from the strings processes pass: what fd.name, proc.cwd and
// chroot hold. Resolution is lexical, as Falco's is: symlinks are not
// followed (the state reads no file system on the record path).
#ifndef KESTREL_ENGINE_STATE_PATH_RESOLUTION_H_
#define KESTREL_ENGINE_STATE_PATH_RESOLUTION_H_

#include <string>
#include <string_view>

namespace kestrel::engine {

// `path` made absolute against `base` (an absolute directory) and
// normalized: "." and empty components dropped, ".." removes the previous
// component (never above "/"). An absolute `path` ignores `base`. Empty when
// `path` is relative and `base` is not absolute (nothing to resolve against).
std::string ResolvePath(std::string_view base, std::string_view path);

// The same into `out` (replacing what it held, reusing its buffer), for the
// per-event paths. `out` must not overlap `base` or `path`.
void ResolvePathInto(std::string& out, std::string_view base, std::string_view path);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_PATH_RESOLUTION_H_
