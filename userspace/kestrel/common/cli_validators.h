// CLI11 validators whose messages read the Kestrel way: CLI11 prefixes the
// flag, so a bad value reads `--count: "abc" is not a whole number`.
#ifndef KESTREL_CLI_CLI_VALIDATORS_H_
#define KESTREL_CLI_CLI_VALIDATORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace kestrel::cli {

// A whole number from `min` to `max`; `below_min` is the message for a
// smaller one (default "must be at least MIN").
CLI::Validator WholeNumber(uint64_t min, uint64_t max, std::string below_min = "");

// A finite number of seconds above 0 and at most `max_seconds`, which the
// message spells as `max_words` (e.g. "30 days").
CLI::Validator Seconds(double max_seconds, std::string max_words);

// One of `choices`; the message lists them ("neither bss nor array").
CLI::Validator OneOf(std::vector<std::string> choices);

// A comma-separated list of syscall names Kestrel knows.
CLI::Validator SyscallNames();

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CLI_VALIDATORS_H_
