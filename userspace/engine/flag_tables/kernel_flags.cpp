// Flag names of kernel events.
#include "flag_table.h"

namespace kestrel::engine {

std::optional<FlagTable> KernelFlagTable(kestrel_flag_set set) {
  switch (set) {
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
