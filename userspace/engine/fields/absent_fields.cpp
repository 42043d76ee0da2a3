#include "absent_fields.h"

#include <array>

namespace kestrel::engine::fields {
namespace {

constexpr std::string_view kDeprecatedZero =
    "deprecated in libsinsp, which gives 0 for every event: a constant, so Kestrel leaves it out";
constexpr std::string_view kCliOnly =
    "a field of Falco's capture and table tools (sysdig's chisels), not of rules";
constexpr std::string_view kPlugins = "plugin and asynchronous events: Kestrel has none";
constexpr std::string_view kPerCheck =
    "libsinsp keeps the previous event's time in each rule's own check, so the value depends on "
    "which rules short-circuit; Kestrel reads a field once per event for every rule";
constexpr std::string_view kProcinfo =
    "libsinsp fills it only on periodic per-thread CPU events (never on a syscall event); Kestrel "
    "has no such event";
constexpr std::string_view kSwitch =
    "exported by scheduler switch events only, which Kestrel does not capture";

constexpr std::array kAbsent = {
    AbsentField{"evt.latency", kDeprecatedZero},
    AbsentField{"evt.latency.s", kDeprecatedZero},
    AbsentField{"evt.latency.ns", kDeprecatedZero},
    AbsentField{"evt.latency.quantized", kDeprecatedZero},
    AbsentField{"evt.latency.human", kDeprecatedZero},
    AbsentField{"evt.wait_latency", kDeprecatedZero},
    AbsentField{"evt.deltatime", kPerCheck},
    AbsentField{"evt.deltatime.s", kPerCheck},
    AbsentField{"evt.deltatime.ns", kPerCheck},
    AbsentField{"evt.outputtime", kCliOnly},
    AbsentField{"evt.around", kCliOnly},
    AbsentField{"evt.type.is", kCliOnly},
    AbsentField{"evt.count.procinfo", kCliOnly},
    AbsentField{"evt.count.threadinfo", kCliOnly},
    AbsentField{"evt.buflen.file", kCliOnly},
    AbsentField{"evt.buflen.file.in", kCliOnly},
    AbsentField{"evt.buflen.file.out", kCliOnly},
    AbsentField{"evt.buflen.net", kCliOnly},
    AbsentField{"evt.buflen.net.in", kCliOnly},
    AbsentField{"evt.buflen.net.out", kCliOnly},
    AbsentField{"evt.infra.docker.name", kCliOnly},
    AbsentField{"evt.infra.docker.container.id", kCliOnly},
    AbsentField{"evt.infra.docker.container.name", kCliOnly},
    AbsentField{"evt.infra.docker.container.image", kCliOnly},
    AbsentField{"evt.pluginname", kPlugins},
    AbsentField{"evt.plugininfo", kPlugins},
    AbsentField{"evt.is_async", kPlugins},
    AbsentField{"evt.asynctype", kPlugins},
    AbsentField{"thread.exectime", kSwitch},
    AbsentField{"thread.totexectime", kSwitch},
    AbsentField{"thread.cpu", kProcinfo},
    AbsentField{"thread.cpu.user", kProcinfo},
    AbsentField{"thread.cpu.system", kProcinfo},
};

}  // namespace

std::span<const AbsentField> AbsentFields() { return kAbsent; }

std::string_view WhyAbsent(std::string_view name) {
  for (const AbsentField& f : kAbsent) {
    const bool family = f.name.ends_with('.');
    if (family ? name.starts_with(f.name) : name == f.name) return f.why;
  }
  return {};
}

}  // namespace kestrel::engine::fields
