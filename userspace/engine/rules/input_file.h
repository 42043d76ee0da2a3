// Reading a file an operator names (a rules file, a config): it must be a
// regular file of bounded size. A symlink to /dev/zero would otherwise grow
// memory without end, and a FIFO would block the start or a reload.
#ifndef KESTREL_ENGINE_RULES_INPUT_FILE_H_
#define KESTREL_ENGINE_RULES_INPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kestrel::engine::rules {

// Far above Falco's largest rules file (about 0.2 MB), far below what would
// hurt a monitor.
inline constexpr size_t kDefaultMaxInputFileBytes = 16u << 20;

// The whole of `path` (symlinks followed), or an error saying what it is
// instead of a regular file, or that it is larger than `max_bytes`. Never
// blocks on a FIFO or a device.
absl::StatusOr<std::string> ReadInputFile(const std::string& path,
                                          size_t max_bytes = kDefaultMaxInputFileBytes);

// Rules text of `size` bytes against the same limit, however it arrived (a
// file, a program's string): the refusal ReadInputFile gives, or ok.
absl::Status CheckInputSize(uint64_t size, size_t max_bytes);

// The rules files `path` names: itself, or a directory's *.yaml and *.yml
// regular files sorted by name (`ec` set when it cannot be listed).
std::vector<std::string> RulesFilesOf(const std::string& path, std::error_code& ec);

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_INPUT_FILE_H_
