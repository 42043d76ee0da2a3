// The ring flags shared by the verbs that load a probe: --buffer-bytes (a
// size or a preset), --cpus-per-buffer (a number or auto),
// --online-cpus-only. Each *Option function adds its flag to a verb's app,
// so every verb spells, checks and documents it the same way.
#ifndef KESTREL_CLI_RING_OPTIONS_H_
#define KESTREL_CLI_RING_OPTIONS_H_

#include <cstdint>
#include <string_view>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"

namespace kestrel::cli {

// "small", "default", "large", a byte count, or a count with K/M/G (powers
// of 1024), e.g. "4M". Refuses what no ring can take: a size that is not a
// power of two, smaller than a page or larger than 2 GiB.
absl::StatusOr<uint64_t> ParseBufferBytes(std::string_view text);

// "auto" or a whole number of CPUs per ring (0 = one shared ring).
absl::StatusOr<uint32_t> ParseCpusPerBuffer(std::string_view text);

// How many CPUs the kernel may ever bring up (/sys/devices/system/cpu/possible),
// or 0 when that cannot be read.
uint32_t PossibleCpuCount();

// --buffer-bytes into `*bytes`.
CLI::Option* BufferBytesOption(CLI::App& app, uint64_t* bytes);

// --cpus-per-buffer into `*cpus`; more CPUs than the machine can have is
// refused rather than silently clamped.
CLI::Option* CpusPerBufferOption(CLI::App& app, uint32_t* cpus);

// --online-cpus-only into `*only`.
CLI::Option* OnlineCpusOnlyOption(CLI::App& app, bool* only);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_RING_OPTIONS_H_
