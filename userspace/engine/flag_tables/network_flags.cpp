// Flag names of network events.
#include "flag_table.h"

namespace kestrel::engine {

std::optional<FlagTable> NetworkFlagTable(kestrel_flag_set set) {
  switch (set) {
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
