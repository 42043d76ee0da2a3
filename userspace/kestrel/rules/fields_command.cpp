#include "kestrel/rules/fields_command.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "engine/fields/absent_fields.h"
#include "engine/fields/field_catalog.h"
#include "engine/filter/field_binding.h"
#include "engine/output/escape.h"
#include "kestrel/common/cli_app.h"

namespace kestrel::cli {
namespace {

using engine::fields::FieldArgSyntax;
using engine::fields::FieldCatalog;
using engine::fields::FieldClass;
using engine::fields::FieldDef;

// Falco's type words, so a listing reads like `falco --list`.
std::string_view TypeWord(engine::filter::ValueType type) {
  switch (type) {
    case engine::filter::ValueType::kString:
      return "string";
    case engine::filter::ValueType::kInt:
      return "int64";
    case engine::filter::ValueType::kUint:
      return "uint64";
    case engine::filter::ValueType::kBool:
      return "bool";
    case engine::filter::ValueType::kStringList:
      return "list";
    case engine::filter::ValueType::kIpAddr:
      return "ipaddr";
    case engine::filter::ValueType::kIpNet:
      return "ipnet";
    case engine::filter::ValueType::kDouble:
      return "double";
  }
  return "string";
}

// The catalog's fields, each class together in the order classes first
// appear (fields appended later to the catalog join their class).
std::vector<const FieldDef*> ByClass() {
  std::vector<std::string_view> classes;
  for (const FieldDef& f : FieldCatalog()) {
    if (std::find(classes.begin(), classes.end(), FieldClass(f.name)) == classes.end()) {
      classes.push_back(FieldClass(f.name));
    }
  }
  std::vector<const FieldDef*> out;
  for (std::string_view klass : classes) {
    for (const FieldDef& f : FieldCatalog()) {
      if (FieldClass(f.name) == klass) out.push_back(&f);
    }
  }
  return out;
}

std::string FormatText() {
  std::string out;
  std::string_view klass;
  for (const FieldDef* def : ByClass()) {
    const FieldDef& f = *def;
    if (FieldClass(f.name) != klass) {
      klass = FieldClass(f.name);
      if (!out.empty()) out.push_back('\n');
      out.append("Field class: ").append(klass).push_back('\n');
    }
    std::string name(f.name);
    if (const std::string_view arg = FieldArgSyntax(f.arg); !arg.empty()) {
      name.append(" ").append(arg);
    }
    std::string type(TypeWord(f.type));
    name.resize(std::max<size_t>(name.size(), 42), ' ');
    type.resize(std::max<size_t>(type.size(), 7), ' ');
    out.append("  ").append(name).append(" ").append(type).append(" ");
    out.append(f.description).push_back('\n');
  }
  return out;
}

std::string FormatJson() {
  std::string out = "[";
  bool first = true;
  for (const FieldDef& f : FieldCatalog()) {
    out.append(first ? "\n  {" : ",\n  {");
    first = false;
    out.append("\"name\":");
    engine::AppendJsonString(out, f.name);
    out.append(",\"type\":");
    engine::AppendJsonString(out, TypeWord(f.type));
    out.append(",\"description\":");
    engine::AppendJsonString(out, f.description);
    out.append(",\"arg\":");
    engine::AppendJsonString(out, FieldArgSyntax(f.arg));
    out.push_back('}');
  }
  out.append("\n]\n");
  return out;
}

}  // namespace

std::string FormatAbsentFieldList(bool json) {
  std::string out = json ? "[" : "";
  bool first = true;
  for (const engine::fields::AbsentField& f : engine::fields::AbsentFields()) {
    if (json) {
      out.append(first ? "\n  {\"name\":" : ",\n  {\"name\":");
      engine::AppendJsonString(out, f.name);
      out.append(",\"why\":");
      engine::AppendJsonString(out, f.why);
      out.push_back('}');
    } else {
      std::string name(f.name);
      name.resize(std::max<size_t>(name.size(), 34), ' ');
      out.append(name).append(" ").append(f.why).push_back('\n');
    }
    first = false;
  }
  if (json) out.append("\n]\n");
  return out;
}

void DefineFieldsOptions(CLI::App& app, FieldsOptions& options) {
  app.add_flag("--json", options.json,
               "print a JSON array of {name, type, description, arg} objects");
  app.add_flag("--absent", options.absent,
               "list instead the fields of Falco's (libsinsp's syscall source) Kestrel leaves "
               "out, each with why ({name, why} with --json)");
}

std::string FormatFieldList(bool json) { return json ? FormatJson() : FormatText(); }

int RunFields(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("fields",
                  "Prints every field a condition can name, grouped by class, with its type\n"
                  "and what it holds. An argument in [ ] or after a dot follows the name:\n"
                  "proc.aname[2], evt.arg.flags, proc.env[HOME].",
                  "kestrel fields | grep '^  fd\\.'");
  FieldsOptions options;
  DefineFieldsOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  const std::string listing =
      options.absent ? FormatAbsentFieldList(options.json) : FormatFieldList(options.json);
  std::fputs(listing.c_str(), stdout);
  return kExitOk;
}

}  // namespace kestrel::cli
