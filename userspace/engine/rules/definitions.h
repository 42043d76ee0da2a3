// Lists, macros and rules as the rules files define them, merged across
// files (append / override / redefinition) but not yet substituted or
// compiled. The reader fills this; the loader compiles it.
#ifndef KESTREL_ENGINE_RULES_DEFINITIONS_H_
#define KESTREL_ENGINE_RULES_DEFINITIONS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/rules/diagnostic.h"
#include "engine/rules/ruleset.h"

namespace kestrel::engine::rules {

// Where an item or one of its keys is written (1-based).
struct Place {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  // The value's text starts here verbatim (a plain or quoted scalar on one
  // line), so a column inside it maps to a column of the file.
  bool verbatim = false;
  bool quoted = false;
};

// The place of a position inside a value written at `value`: exact when the
// value is verbatim on one line, else the value's own place.
Place Within(const Place& value, uint32_t line, uint32_t column);

// One value of a list or of an exception, as written: `quoted` when the
// author wrote quotes inside the YAML string ('"a b"'), so it is never
// taken for a list name.
struct ListItem {
  std::string text;
  bool quoted = false;
};

struct ListDef {
  std::string name;
  std::vector<ListItem> items;
  Place place;
};

struct MacroDef {
  std::string name;
  std::string condition;
  Place place;            // the item
  Place condition_place;  // its condition's value
};

// One exception value: a scalar, or a list of scalars (for `in`/`pmatch`).
struct ExceptionValue {
  std::vector<ListItem> items;
  bool is_list = false;
  Place place;  // the value as written (verbatim when a plain scalar)
};

struct ExceptionDef {
  std::string name;
  std::vector<std::string> fields;
  bool single_field = false;  // `fields: proc.name` rather than a list
  std::vector<std::string> comps;
  // One tuple per entry (one value per field); in the single-field form
  // each tuple has one value.
  std::vector<std::vector<ExceptionValue>> values;
  Place place;
};

struct RuleDef {
  Rule rule;  // name, desc, output, priority, tags, flags, place
  std::string condition;
  std::vector<ExceptionDef> exceptions;
  bool warn_evttypes = true;
  bool skip_if_unknown_filter = false;
  Place place;
  Place condition_place;
  Place output_place;
};

struct Definitions {
  std::vector<ListDef> lists;
  std::vector<MacroDef> macros;
  std::vector<RuleDef> rules;  // definition order
  absl::flat_hash_map<std::string, size_t> list_index, macro_index, rule_index;
  std::vector<Diagnostic> diags;
  size_t skipped = 0;  // rules of another source
  // Every rule name read, with its source: a rule of another source is
  // skipped but still owns its name.
  absl::flat_hash_map<std::string, std::string> rule_sources;

  void Warn(const Place& at, std::string item, std::string message);
  void Error(const Place& at, std::string item, std::string message);
  bool has_error() const;
};

// Reads one rules file's YAML text into `defs`, merging with what earlier
// files defined.
void ReadRulesText(std::string_view yaml, std::string_view file, Definitions& defs);

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_DEFINITIONS_H_
