#include "agent/rules/describe_rules.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/config/json_writer.h"
#include "agent/quote.h"
#include "engine/decode/syscall_names.h"
#include "engine/rules/priority.h"

namespace kestrel::agent {
namespace {

using engine::rules::ListDetails;
using engine::rules::MacroDetails;
using engine::rules::Rule;
using engine::rules::RuleDetails;

std::vector<std::string> SyscallNames(const Rule& rule) {
  std::vector<std::string> names;
  for (uint32_t id : rule.syscalls) names.emplace_back(engine::SyscallName(id));
  return names;
}

// --- JSON: Falco's shape, an "info" (what the file says) and a "details"
// (what Kestrel made of it) per item.

using Json = JsonWriter;

void RuleJson(Json& j, const RunRules& rules, size_t i) {
  const Rule& r = rules.ruleset->rules()[i];
  const RuleDetails& d = rules.ruleset->description()->rules[i];
  j.Open('{');
  j.Key("info");
  j.Open('{');
  j.Field("name", r.name);
  j.Field("condition", r.condition_text);
  j.Field("priority", std::string(engine::rules::PriorityName(r.priority)));
  j.Field("output", r.output);
  j.Field("description", r.desc);
  j.Field("enabled", r.enabled);
  j.Field("source", r.source);
  j.Field("tags", r.tags);
  j.Field("capture", r.capture);
  j.Field("capture_duration", r.capture_duration_ms);
  j.Close('}');
  j.Key("details");
  j.Open('{');
  j.Field("file", r.file);
  j.Field("line", r.line);
  j.Field("condition_compiled", d.condition_compiled);
  j.Field("macros", d.macros);
  j.Field("lists", d.lists);
  j.Field("exception_names", d.exceptions);
  j.Field("output_fields", rules.outputs[i].FieldNames());
  j.Field("events", SyscallNames(r));
  j.Field("all_events", r.any_syscall);
  j.Close('}');
  j.Close('}');
}

void MacroJson(Json& j, const MacroDetails& m) {
  j.Open('{');
  j.Key("info");
  j.Open('{');
  j.Field("name", m.name);
  j.Field("condition", m.condition);
  j.Close('}');
  j.Key("details");
  j.Open('{');
  j.Field("used", m.used);
  j.Field("file", m.file);
  j.Field("line", m.line);
  j.Field("condition_compiled", m.condition_compiled);
  j.Field("macros", m.macros);
  j.Field("lists", m.lists);
  j.Close('}');
  j.Close('}');
}

void ListJson(Json& j, const ListDetails& l) {
  j.Open('{');
  j.Key("info");
  j.Open('{');
  j.Field("name", l.name);
  j.Field("items", l.items);
  j.Close('}');
  j.Key("details");
  j.Open('{');
  j.Field("used", l.used);
  j.Field("file", l.file);
  j.Field("line", l.line);
  j.Field("items_compiled", l.items_compiled);
  j.Field("lists", l.lists);
  j.Close('}');
  j.Close('}');
}

// --- Text: one block per item, `key: value` lines, values escaped.

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) absl::StrAppend(&out, out.empty() ? "" : ", ", Escaped(s));
  return out.empty() ? "-" : out;
}

void Line(std::string& out, std::string_view key, std::string_view value) {
  out.append("  ").append(key).append(": ").append(value).push_back('\n');
}

void RuleText(std::string& out, const RunRules& rules, size_t i) {
  const Rule& r = rules.ruleset->rules()[i];
  const RuleDetails& d = rules.ruleset->description()->rules[i];
  absl::StrAppend(&out, "rule: ", Escaped(r.name), "\n");
  Line(out, "description", Escaped(r.desc));
  Line(out, "priority", engine::rules::PriorityName(r.priority));
  Line(out, "tags", Joined(r.tags));
  Line(out, "source", Escaped(r.source));
  Line(out, "enabled", r.enabled ? "true" : "false");
  Line(out, "file", absl::StrCat(Escaped(r.file), ":", r.line));
  Line(out, "condition", Escaped(r.condition_text));
  Line(out, "compiled", Escaped(d.condition_compiled));
  Line(out, "output", Escaped(r.output));
  Line(out, "output fields", Joined(rules.outputs[i].FieldNames()));
  Line(out, "exceptions", Joined(d.exceptions));
  Line(out, "macros", Joined(d.macros));
  Line(out, "lists", Joined(d.lists));
  Line(out, "syscalls", r.any_syscall ? "all" : Joined(SyscallNames(r)));
}

void MacroText(std::string& out, const MacroDetails& m) {
  absl::StrAppend(&out, "macro: ", Escaped(m.name), "\n");
  Line(out, "used", m.used ? "true" : "false");
  Line(out, "file", absl::StrCat(Escaped(m.file), ":", m.line));
  Line(out, "condition", Escaped(m.condition));
  Line(out, "compiled", m.condition_compiled.empty() ? "-" : Escaped(m.condition_compiled));
  Line(out, "macros", Joined(m.macros));
  Line(out, "lists", Joined(m.lists));
}

void ListText(std::string& out, const ListDetails& l) {
  absl::StrAppend(&out, "list: ", Escaped(l.name), "\n");
  Line(out, "used", l.used ? "true" : "false");
  Line(out, "file", absl::StrCat(Escaped(l.file), ":", l.line));
  Line(out, "items", Joined(l.items));
  Line(out, "compiled", Joined(l.items_compiled));
  Line(out, "lists", Joined(l.lists));
}

}  // namespace

absl::StatusOr<std::string> DescribeRules(const RunRules& rules,
                                          std::optional<std::string_view> rule, bool json) {
  const engine::rules::RulesDescription* description = rules.ruleset->description();
  if (description == nullptr) {
    return absl::FailedPreconditionError("the rules were not loaded to be described");
  }
  const std::vector<Rule>& all = rules.ruleset->rules();
  std::vector<size_t> shown;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!rule || all[i].name == *rule) shown.push_back(i);
  }
  if (rule && shown.empty()) {
    return absl::NotFoundError(absl::StrCat("no rule is named ", Quote(*rule)));
  }
  if (json) {
    Json j;
    j.Open('{');
    j.Key("rules");
    j.Open('[');
    for (size_t i : shown) RuleJson(j, rules, i);
    j.Close(']');
    if (!rule) {
      j.Key("macros");
      j.Open('[');
      for (const MacroDetails& m : description->macros) MacroJson(j, m);
      j.Close(']');
      j.Key("lists");
      j.Open('[');
      for (const ListDetails& l : description->lists) ListJson(j, l);
      j.Close(']');
    }
    j.Close('}');
    return j.Take() + "\n";
  }
  std::string out;
  for (size_t i : shown) {
    if (!out.empty()) out += "\n";
    RuleText(out, rules, i);
  }
  if (!rule) {
    for (const MacroDetails& m : description->macros) {
      out += "\n";
      MacroText(out, m);
    }
    for (const ListDetails& l : description->lists) {
      out += "\n";
      ListText(out, l);
    }
  }
  return out;
}

}  // namespace kestrel::agent
