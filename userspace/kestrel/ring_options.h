// Parsing of the ring flags shared by the commands that load a probe:
// --buffer-bytes (a size or a preset), --cpus-per-buffer (a number or auto),
// --online-cpus-only.
#ifndef KESTREL_CLI_RING_OPTIONS_H_
#define KESTREL_CLI_RING_OPTIONS_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace kestrel::cli {

// "small", "default", "large", a byte count, or a count with K/M/G (powers
// of 1024), e.g. "4M". Whether the size suits a ring is checked by libpman.
absl::StatusOr<uint64_t> ParseBufferBytes(std::string_view text);

// "auto" or a whole number of CPUs per ring (0 = one shared ring).
absl::StatusOr<uint32_t> ParseCpusPerBuffer(std::string_view text);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RING_OPTIONS_H_
