// The shape of a flag set's name table. Each event family keeps its tables
// in its own file under flag_tables/ and answers for the sets it owns.
#ifndef KESTREL_ENGINE_DECODE_FLAG_TABLES_FLAG_TABLE_H_
#define KESTREL_ENGINE_DECODE_FLAG_TABLES_FLAG_TABLE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "shared/param_types.h"

namespace kestrel::engine {

struct FlagName {
  uint64_t value;
  std::string_view name;
};

// How a set reads a value: independent `bits`, and/or one of the `field`
// values compared under `field_mask` (e.g. O_ACCMODE). A set with only a
// field and a mask of ~0 is a plain enumeration (fcntl commands, signals).
struct FlagTable {
  std::span<const FlagName> bits;
  std::span<const FlagName> field;
  uint64_t field_mask = 0;
};

// Each returns the table of `set` when the family owns it.
std::optional<FlagTable> FileFlagTable(kestrel_flag_set set);
std::optional<FlagTable> ProcessFlagTable(kestrel_flag_set set);
std::optional<FlagTable> NetworkFlagTable(kestrel_flag_set set);
std::optional<FlagTable> KernelFlagTable(kestrel_flag_set set);
std::optional<FlagTable> FilesystemFlagTable(kestrel_flag_set set);
std::optional<FlagTable> DescriptorFlagTable(kestrel_flag_set set);
std::optional<FlagTable> SystemFlagTable(kestrel_flag_set set);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_FLAG_TABLES_FLAG_TABLE_H_
