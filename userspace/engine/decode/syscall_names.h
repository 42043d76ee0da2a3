// Names of x86_64 syscalls, expanded from the shared syscall table.
#ifndef KESTREL_ENGINE_DECODE_SYSCALL_NAMES_H_
#define KESTREL_ENGINE_DECODE_SYSCALL_NAMES_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::engine {

struct SyscallEntry {
  uint32_t id;
  std::string_view name;
};

// Every known syscall, by increasing id.
const std::vector<SyscallEntry>& AllSyscalls();

// The name of `id`, or an empty view when the id is not a known syscall.
std::string_view SyscallName(uint32_t id);

// The id of the syscall called `name`, if there is one.
std::optional<uint32_t> SyscallId(std::string_view name);

// Parses a comma-separated list of syscall names ("openat,execve") into ids.
// Fails naming the first unknown or empty entry.
absl::StatusOr<std::vector<uint32_t>> ParseSyscallList(std::string_view list);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_SYSCALL_NAMES_H_
