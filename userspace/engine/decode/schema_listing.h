// Text renderings of the event schema: the `kestrel capture --list-events`
// table, the per-syscall coverage table kept in docs/syscall_coverage.md and
// the event reference kept in docs/events.md.
#ifndef KESTREL_ENGINE_DECODE_SCHEMA_LISTING_H_
#define KESTREL_ENGINE_DECODE_SCHEMA_LISTING_H_

#include <string>

namespace kestrel::engine {

// One line per event: name, syscall, then each parameter as
// name:type or name:type<flag_set>.
std::string FormatEventList();

// Markdown: every x86_64 syscall Kestrel knows, the specific event that
// covers it (or "generic") and the Falco event it corresponds to.
std::string FormatSyscallCoverage();

// Markdown: every event with its id, syscall and typed parameters (with where
// the probe takes each one from), then every flag set with its names.
std::string FormatEventReference();

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_SCHEMA_LISTING_H_
