#include "schema_listing.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "event_schema.h"
#include "flag_set_names.h"
#include "syscall_names.h"

namespace kestrel::engine {
namespace {

const EventInfo* EventForSyscall(std::string_view syscall) {
  for (const EventInfo& e : AllEvents()) {
    if (e.syscall == syscall) return &e;
  }
  return nullptr;
}

}  // namespace

std::string FormatEventList() {
  std::string out = absl::StrFormat("%-18s %-18s %s\n", "EVENT", "SYSCALL", "PARAMETERS");
  for (const EventInfo& e : AllEvents()) {
    absl::StrAppendFormat(&out, "%-18s %-18s", e.name, e.syscall);
    for (const ParamInfo& p : e.params) {
      absl::StrAppendFormat(&out, " %s:%s", p.name, ParamTypeName(p.type));
      const std::string_view set = FlagSetName(p.flag_set);
      if (!set.empty()) absl::StrAppendFormat(&out, "<%s>", set);
    }
    out.push_back('\n');
  }
  return out;
}

std::string FormatSyscallCoverage() {
  size_t covered = 0;
  std::string rows;
  for (const SyscallEntry& s : AllSyscalls()) {
    const EventInfo* e = EventForSyscall(s.name);
    if (e != nullptr) ++covered;
    absl::StrAppendFormat(&rows, "| %u | %s | %s |\n", s.id, s.name,
                          e != nullptr ? absl::StrFormat("`%s`", e->name) : "generic");
  }
  return absl::StrCat(
      "# x86_64 syscall coverage\n\n"
      "Generated from the event schema by `kestrel syscalls coverage`; the unit\n"
      "test `SchemaListingTest.CoverageDocIsCurrent` fails when this file is\n"
      "stale (regenerate with `cmake --build build --target syscall_coverage_doc`).\n\n",
      absl::StrFormat("%u of %u syscalls have a specific event; every other one is\n"
                      "captured as a generic record (id, six raw arguments, return value).\n\n",
                      covered, AllSyscalls().size()),
      "| id | syscall | event |\n| ---: | --- | --- |\n", rows);
}

}  // namespace kestrel::engine
