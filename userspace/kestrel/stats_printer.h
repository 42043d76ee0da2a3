// Prints a probe's counters for people.
#ifndef KESTREL_CLI_STATS_PRINTER_H_
#define KESTREL_CLI_STATS_PRINTER_H_

#include <cstdint>
#include <cstdio>

#include "libpman.h"

namespace kestrel::cli {

// `consumed` and `undecodable` are what this process read out of the rings.
void PrintStats(pman_handle* handle, uint64_t consumed, uint64_t undecodable, std::FILE* out);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_STATS_PRINTER_H_
