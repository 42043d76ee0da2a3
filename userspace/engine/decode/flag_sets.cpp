#include "flag_sets.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "flag_tables/flag_table.h"

namespace kestrel::engine {
namespace {

std::optional<FlagTable> Lookup(kestrel_flag_set set) {
  for (auto family : {FileFlagTable, ProcessFlagTable, NetworkFlagTable, KernelFlagTable,
                      FilesystemFlagTable, DescriptorFlagTable, SystemFlagTable}) {
    if (std::optional<FlagTable> table = family(set)) return table;
  }
  return std::nullopt;
}

}  // namespace

std::string FormatFlags(kestrel_flag_set set, uint64_t value) {
  const std::optional<FlagTable> table = Lookup(set);
  if (!table) return absl::StrFormat("%#x", value);
  std::string out;
  uint64_t rest = value;
  if (!table->field.empty()) {
    const uint64_t mask = table->field_mask != 0 ? table->field_mask : ~0ULL;
    const uint64_t v = value & mask;
    for (const FlagName& n : table->field) {
      if (n.value == v) out = std::string(n.name);
    }
    if (out.empty()) out = absl::StrCat(v);
    rest &= ~mask;
  }
  for (const FlagName& n : table->bits) {
    if (n.value != 0 && (rest & n.value) == n.value) {
      if (!out.empty()) out.push_back('|');
      out.append(n.name);
      rest &= ~n.value;
    }
  }
  if (rest != 0 || out.empty()) {
    if (!out.empty()) out.push_back('|');
    out.append(absl::StrFormat("%#x", rest));
  }
  return out;
}

std::string FormatMode(kestrel_flag_set set, uint64_t value) {
  if (set != KFS_NONE && value != 0) return FormatFlags(set, value);
  return absl::StrFormat("%#o", value);
}

}  // namespace kestrel::engine
