// Prints a probe's counters for people.
#ifndef KESTREL_CLI_STATS_PRINTER_H_
#define KESTREL_CLI_STATS_PRINTER_H_

#include <cstdint>
#include <cstdio>

#include "libpman.h"
#include "read_tally.h"

namespace kestrel::cli {

// `tally` is what this process took out of the rings. Call it after
// pman_detach_and_settle and a full drain: then the line
//   records attempted A: consumed C (...), left unread L, dropped D (...); written W
// adds up, A == C + L + D and W == C + L, and a warning says so if not.
void PrintStats(pman_handle* handle, const ReadTally& tally, std::FILE* out);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_STATS_PRINTER_H_
