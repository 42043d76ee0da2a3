#include "options_compat.h"

#include <algorithm>
#include <cstring>

namespace kestrel::pman {

pman_options CompleteOptions(const pman_options* given) {
  pman_options full;
  pman_default_options(&full);
  const size_t known = std::min<size_t>(given->struct_size, sizeof(full));
  if (known < kOptionsV1Size) {
    full.struct_size = given->struct_size;
    return full;
  }
  std::memcpy(&full, given, known);
  full.struct_size = sizeof(full);
  return full;
}

}  // namespace kestrel::pman
