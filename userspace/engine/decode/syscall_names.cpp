#include "syscall_names.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "shared/syscall_table_x86_64.h"

namespace kestrel::engine {
namespace {

#define KESTREL_SYSCALL_ENTRY(id, name) SyscallEntry{id, #name},

const std::vector<SyscallEntry> kSyscalls = {KESTREL_SYSCALLS_X86_64(KESTREL_SYSCALL_ENTRY)};

#undef KESTREL_SYSCALL_ENTRY

const absl::flat_hash_map<std::string_view, uint32_t>& IdsByName() {
  static const auto* ids = [] {
    auto* map = new absl::flat_hash_map<std::string_view, uint32_t>();
    for (const SyscallEntry& e : kSyscalls) map->emplace(e.name, e.id);
    return map;
  }();
  return *ids;
}

const std::vector<std::string_view>& NamesById() {
  static const auto* names = [] {
    auto* v = new std::vector<std::string_view>(KESTREL_SYSCALL_TABLE_SIZE);
    for (const SyscallEntry& e : kSyscalls) (*v)[e.id] = e.name;
    return v;
  }();
  return *names;
}

}  // namespace

const std::vector<SyscallEntry>& AllSyscalls() { return kSyscalls; }

std::string_view SyscallName(uint32_t id) {
  const std::vector<std::string_view>& names = NamesById();
  return id < names.size() ? names[id] : std::string_view();
}

std::optional<uint32_t> SyscallId(std::string_view name) {
  const auto& ids = IdsByName();
  auto it = ids.find(name);
  if (it == ids.end()) return std::nullopt;
  return it->second;
}

absl::StatusOr<std::vector<uint32_t>> ParseSyscallList(std::string_view list) {
  std::vector<uint32_t> ids;
  int position = 0;
  for (absl::string_view raw : absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    ++position;
    absl::string_view name = absl::StripAsciiWhitespace(raw);
    if (name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("empty syscall name at position %d of \"%s\"", position, list));
    }
    std::optional<uint32_t> id = SyscallId(std::string_view(name.data(), name.size()));
    if (!id) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "unknown syscall \"%s\" at position %d (see `kestrel syscalls`)", name, position));
    }
    ids.push_back(*id);
  }
  return ids;
}

}  // namespace kestrel::engine
