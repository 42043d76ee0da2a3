// Flag names of process events.
#include "flag_table.h"

namespace kestrel::engine {

std::optional<FlagTable> ProcessFlagTable(kestrel_flag_set set) {
  switch (set) {
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
