#include "engine/decode/nul_separated.h"

namespace kestrel::engine {

std::vector<std::string> SplitNulSeparated(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const size_t nul = s.find('\0');
    out.emplace_back(s.substr(0, nul));
    if (nul == std::string_view::npos) break;
    s.remove_prefix(nul + 1);
  }
  return out;
}

}  // namespace kestrel::engine
