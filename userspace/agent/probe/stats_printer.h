// Prints a probe's counters for people.
#ifndef KESTREL_AGENT_PROBE_STATS_PRINTER_H_
#define KESTREL_AGENT_PROBE_STATS_PRINTER_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "agent/probe/read_tally.h"
#include "libpman.h"

namespace kestrel::agent {

// `tally` is what this process took out of the rings. Call it after
// pman_detach_and_settle and a full drain: then the line
//   records attempted A: consumed C (...), left unread L, dropped D (...); written W
// adds up, A == C + L + D and W == C + L, and a warning says so if not.
// The same as text (several lines, each ending in a newline).
std::string FormatStats(pman_handle* handle, const ReadTally& tally);

void PrintStats(pman_handle* handle, const ReadTally& tally, std::FILE* out);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_PROBE_STATS_PRINTER_H_
