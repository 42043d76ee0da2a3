// Lists the kernel writes as NUL-separated strings (argv, environ, cgroup
// paths): what records, /proc and .scap process lists all hold.
#ifndef KESTREL_ENGINE_DECODE_NUL_SEPARATED_H_
#define KESTREL_ENGINE_DECODE_NUL_SEPARATED_H_

#include <string>
#include <string_view>
#include <vector>

namespace kestrel::engine {

// The entries of `s`, split at each NUL; text without one is one entry,
// and a trailing NUL ends the last entry without adding an empty one.
std::vector<std::string> SplitNulSeparated(std::string_view s);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_NUL_SEPARATED_H_
