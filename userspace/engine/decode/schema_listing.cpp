#include "schema_listing.h"

#include <optional>
#include <span>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "event_schema.h"
#include "falco_event_table.h"
#include "flag_set_names.h"
#include "flag_tables/flag_table.h"
#include "syscall_names.h"

namespace kestrel::engine {
namespace {

const EventInfo* EventForSyscall(std::string_view syscall) {
  for (const EventInfo& e : AllEvents()) {
    if (e.syscall == syscall) return &e;
  }
  return nullptr;
}

std::string_view SourceName(kestrel_param_source source) {
  switch (source) {
    case KPS_ARG0:
      return "arg0";
    case KPS_ARG1:
      return "arg1";
    case KPS_ARG2:
      return "arg2";
    case KPS_ARG3:
      return "arg3";
    case KPS_ARG4:
      return "arg4";
    case KPS_ARG5:
      return "arg5";
    case KPS_RET:
      return "return value";
    case KPS_CUSTOM:
      return "filler";
  }
  return "?";
}

std::optional<FlagTable> FlagTableOf(kestrel_flag_set set) {
  for (auto family :
       {FileFlagTable, ProcessFlagTable, NetworkFlagTable, KernelFlagTable, SystemFlagTable}) {
    if (std::optional<FlagTable> table = family(set)) return table;
  }
  return std::nullopt;
}

void AppendEventSection(const EventInfo& e, std::string& out) {
  if (e.syscall.empty()) {
    absl::StrAppendFormat(&out, "### %s\n\nType %u, not tied to a syscall.\n\n", e.name, e.type);
  } else {
    absl::StrAppendFormat(&out, "### %s\n\nType %u, syscall `%s`.\n\n", e.name, e.type, e.syscall);
  }
  out.append("| # | parameter | type | flag set | source |\n| ---: | --- | --- | --- | --- |\n");
  for (size_t i = 0; i < e.params.size(); ++i) {
    const ParamInfo& p = e.params[i];
    const std::string_view set = FlagSetName(p.flag_set);
    absl::StrAppendFormat(&out, "| %u | `%s` | %s | %s | %s |\n", i, p.name, ParamTypeName(p.type),
                          set.empty() ? std::string() : absl::StrFormat("[%s](#%s)", set, set),
                          SourceName(p.source));
  }
  out.push_back('\n');
}

// Bits read best in hex, one-of values (signals, commands) in decimal.
std::string JoinFlagNames(std::span<const FlagName> names, bool hex) {
  std::string out;
  for (const FlagName& n : names) {
    if (!out.empty()) out.append(", ");
    if (hex) {
      absl::StrAppendFormat(&out, "`%s` (%#x)", n.name, n.value);
    } else {
      absl::StrAppendFormat(&out, "`%s` (%u)", n.name, n.value);
    }
  }
  return out;
}

std::string_view Plural(size_t n, std::string_view one, std::string_view many) {
  return n == 1 ? one : many;
}

void AppendEventIndex(const std::vector<EventInfo>& events, std::string& out) {
  std::string line;
  for (const EventInfo& e : events) {
    if (!line.empty()) line.append(", ");
    absl::StrAppendFormat(&line, "[%s](#%s)", e.name, absl::AsciiStrToLower(std::string(e.name)));
  }
  absl::StrAppendFormat(&out, "%u %s: %s.\n\n", events.size(),
                        Plural(events.size(), "event", "events"), line);
}

void AppendFlagSetSection(kestrel_flag_set set, std::string& out) {
  absl::StrAppendFormat(&out, "### %s\n\n", FlagSetName(set));
  std::string users;
  for (const auto* events : {&AllEvents(), &OtherEvents()}) {
    for (const EventInfo& e : *events) {
      for (const ParamInfo& p : e.params) {
        if (p.flag_set != set) continue;
        if (!users.empty()) users.append(", ");
        absl::StrAppendFormat(&users, "%s.%s", e.name, p.name);
      }
    }
  }
  if (!users.empty()) absl::StrAppendFormat(&out, "Used by %s.\n\n", users);
  const std::optional<FlagTable> table = FlagTableOf(set);
  if (!table) {
    out.append("Printed as a number.\n\n");
    return;
  }
  if (!table->field.empty()) {
    const uint64_t mask = table->field_mask != 0 ? table->field_mask : ~0ULL;
    if (mask == ~0ULL) {
      absl::StrAppendFormat(&out, "- one of: %s\n", JoinFlagNames(table->field, false));
    } else {
      absl::StrAppendFormat(&out, "- the bits under %#x are one of: %s\n", mask,
                            JoinFlagNames(table->field, false));
    }
  }
  if (!table->bits.empty()) {
    absl::StrAppendFormat(&out, "- bits: %s\n", JoinFlagNames(table->bits, true));
  }
  out.push_back('\n');
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
  size_t covered_of_falco = 0;
  std::string rows;
  for (const SyscallEntry& s : AllSyscalls()) {
    const EventInfo* e = EventForSyscall(s.name);
    const FalcoEvent* falco = FindFalcoEvent(s.name);
    if (e != nullptr) ++covered;
    if (e != nullptr && falco != nullptr) ++covered_of_falco;
    absl::StrAppendFormat(&rows, "| %u | %s | %s | %s |\n", s.id, s.name,
                          e != nullptr ? absl::StrFormat("`%s`", e->name) : "generic",
                          falco != nullptr ? absl::StrFormat("`%s`", falco->event) : "—");
  }
  return absl::StrCat(
      "# x86_64 syscall coverage\n\n"
      "Generated from the event schema by `kestrel syscalls coverage`; the unit\n"
      "test `SchemaListingTest.CoverageDocIsCurrent` fails when this file is\n"
      "stale (regenerate with `cmake --build build --target syscall_coverage_doc`).\n\n",
      absl::StrFormat("%u of %u syscalls have a specific event; every other one is\n"
                      "captured as a generic record (id, six raw arguments, return value).\n\n",
                      covered, AllSyscalls().size()),
      absl::StrFormat("%u specific events, %u of Falco's %u.\n\n", covered, covered_of_falco,
                      FalcoSyscallEvents().size()),
      "The Falco column is the exit event Falco records the syscall with (its\n"
      "parameter names are Kestrel's too); \"—\" where Falco has no specific event\n"
      "(a Kestrel extra when Kestrel has one).\n\n"
      "| id | syscall | event | Falco event |\n| ---: | --- | --- | --- |\n",
      rows);
}

std::string FormatEventReference() {
  std::string out =
      "# Event reference\n\n"
      "Generated from the event schema (`driver/modern_bpf/shared/event_schema.h`); the\n"
      "unit test `SchemaListingTest.EventReferenceIsCurrent` fails when this file is\n"
      "stale (regenerate with `cmake --build build --target events_doc`). Where the\n"
      "values come from and which ones a traced process can change under the probe:\n"
      "[design/events.md](design/events.md).\n\n"
      "Every record starts with the same header: boot-time timestamp, tid, tgid, CPU,\n"
      "type and flags (`truncated` when a parameter was cut to fit, `ia32` for a\n"
      "32-bit syscall). An interesting syscall without a specific event below is\n"
      "reported as a generic record (type 1): syscall id, six raw arguments, return\n"
      "value. Types 2 to 5 are the stream's own records: drop marker, settings\n"
      "changed, dropping mode started and stopped.\n\n"
      "Parameter sources: `argN` is syscall argument N (for a path or a string, the\n"
      "caller's memory it points to, read at exit), `return value` the syscall's\n"
      "result, `filler` a value the event's filler program reads from kernel\n"
      "structures or from the caller's memory.\n\n";
  out.append("## Syscall events\n\n");
  AppendEventIndex(AllEvents(), out);
  for (const EventInfo& e : AllEvents()) AppendEventSection(e, out);
  out.append("## Events of no syscall\n\n");
  AppendEventIndex(OtherEvents(), out);
  for (const EventInfo& e : OtherEvents()) AppendEventSection(e, out);
  out.append(
      "## Flag sets\n\n"
      "`kestrel capture` prints a flag word by name. A bit without a name is\n"
      "appended in hex; a one-of value without a name prints as a number.\n\n");
  for (int set = KFS_NONE + 1; set < KFS_FLAG_SET_MAX; ++set) {
    AppendFlagSetSection(static_cast<kestrel_flag_set>(set), out);
  }
  out.pop_back();  // one newline at the end of the file
  return out;
}

}  // namespace kestrel::engine
