// Symbolic names for flag words and enumerated values, per kestrel_flag_set.
#ifndef KESTREL_ENGINE_DECODE_FLAG_SETS_H_
#define KESTREL_ENGINE_DECODE_FLAG_SETS_H_

#include <cstdint>
#include <string>

#include "shared/param_types.h"

namespace kestrel::engine {

// "O_WRONLY|O_CREAT|O_CLOEXEC"; bits without a name are appended in hex, and
// a value of an enumerated set without a name prints as a number.
std::string FormatFlags(kestrel_flag_set set, uint64_t value);

// A mode parameter as Falco prints it: by name ("S_ISUID|S_IRUSR") when the
// schema gives it a flag set (the chmod family), else in octal ("0644",
// open and mkdir). Zero is "0".
std::string FormatMode(kestrel_flag_set set, uint64_t value);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_FLAG_SETS_H_
