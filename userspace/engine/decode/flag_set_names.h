// Printable names of the flag sets, for listings of the schema.
#ifndef KESTREL_ENGINE_DECODE_FLAG_SET_NAMES_H_
#define KESTREL_ENGINE_DECODE_FLAG_SET_NAMES_H_

#include <string_view>

#include "shared/param_types.h"

namespace kestrel::engine {

// "open_flags" for KFS_OPEN_FLAGS; "" for KFS_NONE.
std::string_view FlagSetName(kestrel_flag_set set);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_FLAG_SET_NAMES_H_
