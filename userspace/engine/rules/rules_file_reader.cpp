// ReadRulesText: one rules file's YAML into Definitions, with Falco's
// merging rules (redefinition replaces, `append: true` and `override:` add
// to or replace keys of an item defined earlier).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/filter/scanner.h"
#include "engine/rules/definitions.h"
#include "yaml-cpp/yaml.h"

namespace kestrel::engine::rules {

using filter::Sv;

void Definitions::Warn(const Place& at, std::string item, std::string message) {
  diags.push_back(Diagnostic{Diagnostic::Severity::kWarning, at.file, at.line, at.column,
                             std::move(item), std::move(message)});
}

void Definitions::Error(const Place& at, std::string item, std::string message) {
  diags.push_back(Diagnostic{Diagnostic::Severity::kError, at.file, at.line, at.column,
                             std::move(item), std::move(message)});
}

bool Definitions::has_error() const {
  return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) {
    return d.severity == Diagnostic::Severity::kError;
  });
}

Place Within(const Place& value, uint32_t line, uint32_t column) {
  if (!value.verbatim || line != 1) return value;
  Place out = value;
  out.column += column - 1 + (value.quoted ? 1 : 0);
  return out;
}

namespace {

enum class Merge { kDefine, kAppend, kReplace };

// The keys each item kind takes (Falco's names).
const std::vector<std::string_view> kRuleKeys = {
    "rule",    "desc",     "condition", "output",           "priority",
    "enabled", "tags",     "source",    "exceptions",       "warn_evttypes",
    "append",  "override", "capture",   "capture_duration", "skip-if-unknown-filter"};
const std::vector<std::string_view> kMacroKeys = {"macro",    "condition", "append",
                                                  "override", "source",    "desc"};
const std::vector<std::string_view> kListKeys = {"list", "items", "append", "override"};
// What a rule's override may append to (Falco's): text and collections;
// everything else can only be replaced.
const std::vector<std::string_view> kRuleAppendableKeys = {"condition", "output", "desc", "tags",
                                                           "exceptions"};

bool Contains(const std::vector<std::string_view>& keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

bool IsAsciiLetter(char c) { return absl::ascii_isalpha(static_cast<unsigned char>(c)); }

// A name a condition can call a macro by (Falco's identifier rule): a
// letter, then letters, digits and '_'.
bool IsMacroName(std::string_view name) {
  if (name.empty() || !IsAsciiLetter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// A name a condition can name a list by (Falco's bare-word rule): no
// space, quote, parenthesis, '=' or ','.
bool IsListName(std::string_view name) {
  if (name.empty()) return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isspace(static_cast<unsigned char>(c)) || c == '(' || c == ')' || c == '"' ||
           c == '\'' || c == '=' || c == ',';
  });
}

// The text between matching quotes the author put inside a YAML string.
ListItem ItemFromText(std::string text) {
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    return {text.substr(1, text.size() - 2), true};
  }
  return {std::move(text), false};
}

class FileReader {
 public:
  FileReader(std::string_view file, Definitions& defs) : file_(file), defs_(defs) {}

  void Read(std::string_view yaml) {
    // yaml-cpp reports a NUL byte somewhere else, or not at all: a rules
    // file is text, so the first one is the error, at its own place.
    if (const size_t nul = yaml.find('\0'); nul != std::string_view::npos) {
      const std::string_view before = yaml.substr(0, nul);
      const size_t line_start = before.rfind('\n');
      const size_t column = line_start == std::string_view::npos ? nul : nul - line_start - 1;
      defs_.Error(
          Place{file_, static_cast<uint32_t>(std::count(before.begin(), before.end(), '\n') + 1),
                static_cast<uint32_t>(column + 1)},
          "", "a NUL byte: a rules file is text");
      return;
    }
    lines_ = absl::StrSplit(Sv(yaml), '\n');
    // yaml-cpp 0.7's LoadAll can loop forever, allocating, on malformed
    // text with document markers (test/fuzz/regressions/rules_fuzzer/);
    // Load stops. So each document is loaded on its own.
    std::vector<std::pair<uint32_t, YAML::Node>> docs;
    for (const auto& [first_line, text] : Documents()) {
      line_offset_ = first_line;
      try {
        docs.emplace_back(first_line, YAML::Load(text));
      } catch (const YAML::Exception& e) {
        defs_.Error(At(e.mark), "", absl::StrCat("not valid YAML: ", e.msg));
        return;
      }
    }
    for (const auto& [first_line, doc] : docs) {
      line_offset_ = first_line;
      if (doc.IsNull()) continue;
      if (!doc.IsSequence()) {
        defs_.Error(At(doc), "",
                    "a rules file is a list of items (- rule:, - macro:, - list: ...)");
        continue;
      }
      for (const YAML::Node& item : doc) ReadItem(item);
    }
  }

 private:
  // The file's documents, split at the lines that start one ("---") or
  // end one ("..."), each with the index of its first line in the file.
  std::vector<std::pair<uint32_t, std::string>> Documents() const {
    auto is_marker = [](absl::string_view line, absl::string_view marker) {
      return absl::ConsumePrefix(&line, marker) &&
             (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '\r');
    };
    std::vector<std::pair<uint32_t, std::string>> docs(1);
    for (size_t i = 0; i < lines_.size(); ++i) {
      const bool starts = is_marker(lines_[i], "---");
      if (starts || is_marker(lines_[i], "...")) {
        // What follows "--- " on its line is the document's first node.
        docs.emplace_back(static_cast<uint32_t>(i),
                          starts ? absl::StrCat("   ", lines_[i].substr(3), "\n") : "\n");
        continue;
      }
      // No newline after the last line, as the file had none there.
      absl::StrAppend(&docs.back().second, lines_[i], i + 1 < lines_.size() ? "\n" : "");
    }
    return docs;
  }

  Place At(const YAML::Mark& m) const {
    if (m.is_null()) return Place{file_, 0, 0};
    return Place{file_, static_cast<uint32_t>(line_offset_ + m.line + 1),
                 static_cast<uint32_t>(m.column + 1)};
  }
  Place At(const YAML::Node& n) const { return At(n.Mark()); }

  std::optional<std::string> Scalar(const YAML::Node& n, std::string_view what,
                                    const std::string& item) {
    if (n.IsScalar()) return n.Scalar();
    if (n.IsNull()) return std::string();
    defs_.Error(At(n), item, absl::StrCat(Sv(what), " must be a string"));
    return std::nullopt;
  }

  std::optional<bool> Bool(const YAML::Node& n, std::string_view what, const std::string& item) {
    if (n.IsScalar()) {
      const std::string v = absl::AsciiStrToLower(n.Scalar());
      if (v == "true" || v == "yes" || v == "on") return true;
      if (v == "false" || v == "no" || v == "off") return false;
    }
    defs_.Error(At(n), item, absl::StrCat(Sv(what), " must be true or false"));
    return std::nullopt;
  }

  void ReadItem(const YAML::Node& item) {
    if (!item.IsMap()) {
      defs_.Error(At(item), "", "each item is a mapping (rule:, macro:, list: ...)");
      return;
    }
    if (item["rule"]) return ReadRule(item);
    if (item["macro"]) return ReadMacro(item);
    if (item["list"]) return ReadList(item);
    if (item["required_engine_version"]) return ReadEngineVersion(item["required_engine_version"]);
    if (item["required_plugin_versions"]) {
      return ReadPluginVersions(item["required_plugin_versions"]);
    }
    std::string keys;
    for (const auto& kv : item) {
      absl::StrAppend(&keys, keys.empty() ? "" : ", ", kv.first.Scalar());
    }
    defs_.Warn(At(item), "", absl::StrCat("unknown item (keys: ", keys, "): ignored"));
  }

  // Which keys of an item `override:` or `append: true` merge, and how.
  // Returns false after reporting an error.
  bool MergeModes(const YAML::Node& item, const std::vector<std::string_view>& mergeable,
                  const std::string& name, absl::flat_hash_map<std::string, Merge>& modes,
                  bool& merging) {
    merging = false;
    if (const YAML::Node append = item["append"]) {
      std::optional<bool> on = Bool(append, "append", name);
      if (!on) return false;
      if (*on) {
        merging = true;
        defs_.Warn(At(append), name,
                   "'append: true' is deprecated: say 'override:' which keys it appends to");
        for (const auto& kv : item) {
          const std::string key = kv.first.Scalar();
          if (Contains(mergeable, key)) modes[key] = Merge::kAppend;
        }
      }
    }
    if (const YAML::Node ov = item["override"]) {
      if (item["append"]) {
        defs_.Error(At(ov), name, "'override' and 'append' cannot be used together");
        return false;
      }
      if (!ov.IsMap()) {
        defs_.Error(At(ov), name, "override maps keys to append or replace");
        return false;
      }
      merging = true;
      for (const auto& kv : ov) {
        const std::string key = kv.first.Scalar();
        const std::string how = kv.second.IsScalar() ? kv.second.Scalar() : "";
        if (how != "append" && how != "replace") {
          defs_.Error(At(kv.second), name,
                      absl::StrCat("override of '", key, "' must be append or replace"));
          return false;
        }
        if (!item[key]) {
          defs_.Error(At(kv.first), name,
                      absl::StrCat("override names '", key, "' but the item has no such key"));
          return false;
        }
        modes[key] = how == "append" ? Merge::kAppend : Merge::kReplace;
      }
      for (const auto& kv : item) {
        const std::string key = kv.first.Scalar();
        if (key == "rule" || key == "macro" || key == "list" || key == "override") continue;
        if (!modes.contains(key)) {
          defs_.Error(At(kv.first), name,
                      absl::StrCat("key '", key,
                                   "' is given without saying in override whether it appends "
                                   "or replaces"));
          return false;
        }
      }
    }
    return true;
  }

  void WarnUnknownKeys(const YAML::Node& item, const std::vector<std::string_view>& keys,
                       const std::string& name) {
    for (const auto& kv : item) {
      if (!Contains(keys, kv.first.Scalar())) {
        defs_.Warn(At(kv.first), name,
                   absl::StrCat("unknown key '", kv.first.Scalar(), "': ignored"));
      }
    }
  }

  std::optional<std::vector<ListItem>> Items(const YAML::Node& n, const std::string& name) {
    std::vector<ListItem> out;
    if (n.IsNull()) return out;
    if (!n.IsSequence()) {
      defs_.Error(At(n), name, "items must be a list");
      return std::nullopt;
    }
    for (const YAML::Node& v : n) {
      if (!v.IsScalar()) {
        defs_.Error(At(v), name, "list items must be strings or numbers");
        return std::nullopt;
      }
      out.push_back(ItemFromText(v.Scalar()));
    }
    return out;
  }

  void ReadList(const YAML::Node& item) {
    std::optional<std::string> name_text = Scalar(item["list"], "the list's name", "");
    if (!name_text) return;
    const std::string name = absl::StrCat("list '", *name_text, "'");
    WarnUnknownKeys(item, kListKeys, name);
    if (!IsListName(*name_text)) {
      defs_.Warn(At(item["list"]), name,
                 "not a name a condition can use: a list name is one word with no quote, "
                 "parenthesis, '=' or ','");
    }
    absl::flat_hash_map<std::string, Merge> modes;
    bool merging = false;
    if (!MergeModes(item, {"items"}, name, modes, merging)) return;
    if (!item["items"]) {
      defs_.Error(At(item), name, "a list needs 'items'");
      return;
    }
    std::optional<std::vector<ListItem>> items = Items(item["items"], name);
    if (!items) return;
    auto it = defs_.list_index.find(*name_text);
    // Replacing a list nobody defined yet defines it, as Falco loads it.
    if (merging && it == defs_.list_index.end() && modes["items"] == Merge::kReplace) {
      merging = false;
    }
    if (merging) {
      if (it == defs_.list_index.end()) {
        defs_.Error(At(item), name, "appends to a list not defined before");
        return;
      }
      ListDef& def = defs_.lists[it->second];
      if (modes["items"] == Merge::kAppend) {
        def.items.insert(def.items.end(), items->begin(), items->end());
      } else {
        def.items = *std::move(items);
      }
      return;
    }
    ListDef def{*name_text, *std::move(items), At(item)};
    if (it != defs_.list_index.end()) {
      defs_.lists[it->second] = std::move(def);
    } else {
      defs_.list_index[*name_text] = defs_.lists.size();
      defs_.lists.push_back(std::move(def));
    }
  }

  void ReadMacro(const YAML::Node& item) {
    std::optional<std::string> name_text = Scalar(item["macro"], "the macro's name", "");
    if (!name_text) return;
    const std::string name = absl::StrCat("macro '", *name_text, "'");
    WarnUnknownKeys(item, kMacroKeys, name);
    if (!IsMacroName(*name_text)) {
      defs_.Warn(At(item["macro"]), name,
                 "not a name a condition can use: a macro name starts with a letter and has "
                 "only letters, digits and '_'");
    }
    absl::flat_hash_map<std::string, Merge> modes;
    bool merging = false;
    if (!MergeModes(item, {"condition"}, name, modes, merging)) return;
    if (const YAML::Node source = item["source"];
        source && source.IsScalar() && source.Scalar() != "syscall") {
      return;  // macros of other sources are never used by syscall rules
    }
    const YAML::Node cond = item["condition"];
    if (!cond) {
      defs_.Error(At(item), name, "a macro needs a 'condition'");
      return;
    }
    std::optional<std::string> text = Scalar(cond, "condition", name);
    if (!text) return;
    auto it = defs_.macro_index.find(*name_text);
    // Replacing a macro nobody defined yet defines it, as Falco loads it.
    if (merging && it == defs_.macro_index.end() && modes["condition"] == Merge::kReplace) {
      merging = false;
    }
    if (merging) {
      if (it == defs_.macro_index.end()) {
        defs_.Error(At(item), name, "appends to a macro not defined before");
        return;
      }
      MacroDef& def = defs_.macros[it->second];
      if (modes["condition"] == Merge::kAppend) {
        absl::StrAppend(&def.condition, " ", *text);
        def.condition_place.verbatim = false;
      } else {
        def.condition = *text;
        def.condition_place = ValuePlace(cond);
      }
      return;
    }
    MacroDef def{*name_text, *std::move(text), At(item), ValuePlace(cond)};
    if (it != defs_.macro_index.end()) {
      defs_.macros[it->second] = std::move(def);
    } else {
      defs_.macro_index[*name_text] = defs_.macros.size();
      defs_.macros.push_back(std::move(def));
    }
  }

  std::optional<std::vector<std::string>> Strings(const YAML::Node& n, std::string_view what,
                                                  const std::string& name) {
    std::vector<std::string> out;
    if (n.IsNull()) return out;
    if (!n.IsSequence()) {
      defs_.Error(At(n), name, absl::StrCat(Sv(what), " must be a list"));
      return std::nullopt;
    }
    for (const YAML::Node& v : n) {
      if (!v.IsScalar()) {
        defs_.Error(At(v), name, absl::StrCat(Sv(what), " must be a list of strings"));
        return std::nullopt;
      }
      out.push_back(v.Scalar());
    }
    return out;
  }

  std::optional<ExceptionValue> ExceptionValueOf(const YAML::Node& v, const std::string& name) {
    ExceptionValue out;
    out.place = ValuePlace(v);
    if (v.IsScalar()) {
      out.items.push_back(ItemFromText(v.Scalar()));
      return out;
    }
    if (v.IsSequence()) {
      std::optional<std::vector<ListItem>> items = Items(v, name);
      if (!items) return std::nullopt;
      out.items = *std::move(items);
      out.is_list = true;
      return out;
    }
    defs_.Error(At(v), name, "an exception value is a string or a list of strings");
    return std::nullopt;
  }

  // Reads `exceptions:`; an exception with only a name and values adds
  // values to one defined before (`require_fields` false when appending).
  std::optional<std::vector<ExceptionDef>> Exceptions(const YAML::Node& n,
                                                      const std::string& name) {
    std::vector<ExceptionDef> out;
    if (n.IsNull()) return out;
    if (!n.IsSequence()) {
      defs_.Error(At(n), name, "exceptions must be a list");
      return std::nullopt;
    }
    for (const YAML::Node& e : n) {
      if (!e.IsMap() || !e["name"] || !e["name"].IsScalar()) {
        defs_.Error(At(e), name, "each exception needs a 'name'");
        return std::nullopt;
      }
      ExceptionDef def;
      def.name = e["name"].Scalar();
      def.place = At(e);
      const std::string what = absl::StrCat(name, " exception '", def.name, "'");
      if (std::any_of(out.begin(), out.end(),
                      [&](const ExceptionDef& d) { return d.name == def.name; })) {
        defs_.Warn(At(e["name"]), what,
                   "a second exception of this name in the same list: both apply; give each "
                   "its own name");
      }
      for (const auto& kv : e) {
        const std::string key = kv.first.Scalar();
        if (key != "name" && key != "fields" && key != "comps" && key != "values") {
          defs_.Warn(At(kv.first), what, absl::StrCat("unknown key '", key, "': ignored"));
        }
      }
      if (const YAML::Node fields = e["fields"]) {
        if (fields.IsScalar()) {
          def.single_field = true;
          def.fields.push_back(fields.Scalar());
        } else {
          std::optional<std::vector<std::string>> f = Strings(fields, "fields", what);
          if (!f) return std::nullopt;
          def.fields = *std::move(f);
        }
      }
      if (const YAML::Node comps = e["comps"]) {
        if (comps.IsScalar()) {
          def.comps.push_back(comps.Scalar());
        } else {
          std::optional<std::vector<std::string>> c = Strings(comps, "comps", what);
          if (!c) return std::nullopt;
          def.comps = *std::move(c);
        }
      }
      if (const YAML::Node values = e["values"]; values && !values.IsNull()) {
        if (!values.IsSequence()) {
          defs_.Error(At(values), what, "values must be a list");
          return std::nullopt;
        }
        for (const YAML::Node& tuple : values) {
          std::vector<ExceptionValue> row;
          if (tuple.IsSequence() && !def.single_field) {
            for (const YAML::Node& v : tuple) {
              std::optional<ExceptionValue> ev = ExceptionValueOf(v, what);
              if (!ev) return std::nullopt;
              row.push_back(*std::move(ev));
            }
          } else {
            std::optional<ExceptionValue> ev = ExceptionValueOf(tuple, what);
            if (!ev) return std::nullopt;
            row.push_back(*std::move(ev));
          }
          def.values.push_back(std::move(row));
        }
      }
      out.push_back(std::move(def));
    }
    return out;
  }

  // Checks an exception once its fields are known (after any merge).
  bool CheckException(ExceptionDef& e, const std::string& name) {
    const std::string what = absl::StrCat(name, " exception '", e.name, "'");
    if (e.fields.empty()) {
      defs_.Error(e.place, what, "needs 'fields'");
      return false;
    }
    if (e.comps.empty()) {
      e.comps.assign(e.fields.size(), e.single_field ? "in" : "=");
    }
    if (e.comps.size() != e.fields.size()) {
      defs_.Error(e.place, what,
                  absl::StrCat("has ", e.fields.size(), " fields but ", e.comps.size(), " comps"));
      return false;
    }
    for (const std::vector<ExceptionValue>& row : e.values) {
      if (row.size() != e.fields.size()) {
        defs_.Error(
            e.place, what,
            absl::StrCat("a value has ", row.size(), " items for ", e.fields.size(), " fields"));
        return false;
      }
    }
    return true;
  }

  void ReadRule(const YAML::Node& item) {
    std::optional<std::string> name_text = Scalar(item["rule"], "the rule's name", "");
    if (!name_text) return;
    const std::string name = absl::StrCat("rule '", *name_text, "'");
    WarnUnknownKeys(item, kRuleKeys, name);
    absl::flat_hash_map<std::string, Merge> modes;
    bool merging = false;
    if (!MergeModes(item, {"condition", "output", "desc", "tags", "exceptions"}, name, modes,
                    merging)) {
      return;
    }
    auto it = defs_.rule_index.find(*name_text);
    // The item's own `source:`, when it gives one.
    std::optional<std::string> source;
    if (const YAML::Node s = item["source"]) {
      source = Scalar(s, "source", name);
      if (!source) return;
      if (source->empty()) source.reset();
    }
    auto known = defs_.rule_sources.find(*name_text);
    // A name belongs to the source that first defined it (Falco's rule):
    // another source's rule of the same name is a conflict, not a
    // redefinition.
    auto conflicts = [&](const std::string& mine) {
      if (known == defs_.rule_sources.end() || known->second == mine) return false;
      defs_.Error(item["source"] ? At(item["source"]) : At(item), name,
                  absl::StrCat("source conflict: the rule was defined for source '", known->second,
                               "' and this item is for source '", mine,
                               "'; a rule name belongs to one source"));
      return true;
    };
    // Falco's shorthand: `- rule: X` with only `enabled:` switches a rule
    // defined before.
    bool only_enabled = item["enabled"] && !item["override"];
    for (const auto& kv : item) {
      const std::string key = kv.first.Scalar();
      if (key != "rule" && key != "enabled" && key != "append") only_enabled = false;
    }
    if (only_enabled || merging) {
      if (source && conflicts(*source)) return;
      // Changes to a rule of another source go with it (skipped).
      if (known != defs_.rule_sources.end() && known->second != "syscall") return;
      if (it == defs_.rule_index.end()) {
        defs_.Error(At(item), name, "changes a rule not defined before");
        return;
      }
      if (only_enabled) {
        defs_.Warn(At(item["enabled"]), name,
                   "a rule item with only 'enabled' is deprecated: say 'override: {enabled: "
                   "replace}'");
        modes["enabled"] = Merge::kReplace;
      }
      for (const auto& [key, how] : modes) {
        if (how == Merge::kAppend && !Contains(kRuleAppendableKeys, key)) {
          defs_.Error(At(item["override"][key]), name,
                      absl::StrCat("'", key, "' cannot be appended to, only replaced"));
          return;
        }
      }
      RuleDef& def = defs_.rules[it->second];
      for (const auto& [key, how] : modes) {
        if (!ApplyRuleKey(def, key, item[key], how, name)) return;
      }
      for (ExceptionDef& e : def.exceptions) {
        if (!CheckException(e, name)) return;
      }
      return;
    }
    for (std::string_view key : {"condition", "output", "priority"}) {
      if (!item[std::string(key)]) {
        defs_.Error(At(item), name, absl::StrCat("a rule needs '", Sv(key), "'"));
        return;
      }
    }
    RuleDef def;
    def.rule.name = *name_text;
    def.place = At(item);
    def.rule.file = file_;
    def.rule.line = def.place.line;
    if (conflicts(source.value_or("syscall"))) return;
    defs_.rule_sources[*name_text] = source.value_or("syscall");
    if (source && *source != "syscall") {
      defs_.Warn(At(item["source"]), name,
                 absl::StrCat("source '", *source, "' is not one Kestrel reads: rule skipped"));
      ++defs_.skipped;
      return;
    }
    for (const auto& kv : item) {
      const std::string key = kv.first.Scalar();
      if (key == "rule" || key == "append" || key == "override" || key == "source") continue;
      if (!Contains(kRuleKeys, key)) continue;
      if (!ApplyRuleKey(def, key, kv.second, Merge::kDefine, name)) return;
    }
    for (ExceptionDef& e : def.exceptions) {
      if (!CheckException(e, name)) return;
    }
    if (it != defs_.rule_index.end()) {
      defs_.rules[it->second] = std::move(def);
    } else {
      defs_.rule_index[*name_text] = defs_.rules.size();
      defs_.rules.push_back(std::move(def));
    }
  }

  bool ApplyRuleKey(RuleDef& def, const std::string& key, const YAML::Node& v, Merge how,
                    const std::string& name) {
    const bool append = how == Merge::kAppend;
    auto text = [&](std::string& field) {
      std::optional<std::string> s = Scalar(v, key, name);
      if (!s) return false;
      if (append && !field.empty()) {
        absl::StrAppend(&field, " ", *s);
      } else {
        field = *s;
      }
      return true;
    };
    if (key == "condition") {
      // Appended text follows no place in the file: positions in it are the value's.
      if (!append) def.condition_place = ValuePlace(v);
      if (append) def.condition_place.verbatim = false;
      return text(def.condition);
    }
    if (key == "output") {
      if (!append) def.rule.output.clear();
      if (def.rule.output.empty()) def.output_place = ValuePlace(v);
      if (append) def.output_place.verbatim = false;
      return text(def.rule.output);
    }
    if (key == "desc") return text(def.rule.desc);
    if (key == "priority") {
      std::optional<std::string> s = Scalar(v, key, name);
      if (!s) return false;
      std::optional<Priority> p = ParsePriority(*s);
      if (!p) {
        defs_.Error(At(v), name,
                    absl::StrCat("unknown priority '", *s,
                                 "' (emergency, alert, critical, error, warning, notice, "
                                 "informational, debug)"));
        return false;
      }
      def.rule.priority = *p;
      return true;
    }
    if (key == "tags") {
      std::optional<std::vector<std::string>> tags = Strings(v, "tags", name);
      if (!tags) return false;
      if (!append) def.rule.tags.clear();
      for (std::string& t : *tags) {
        if (std::find(def.rule.tags.begin(), def.rule.tags.end(), t) == def.rule.tags.end()) {
          def.rule.tags.push_back(std::move(t));
        }
      }
      return true;
    }
    if (key == "exceptions") {
      std::optional<std::vector<ExceptionDef>> ex = Exceptions(v, name);
      if (!ex) return false;
      if (!append) {
        def.exceptions = *std::move(ex);
        return true;
      }
      for (ExceptionDef& e : *ex) {
        auto same = std::find_if(def.exceptions.begin(), def.exceptions.end(),
                                 [&](const ExceptionDef& d) { return d.name == e.name; });
        if (same == def.exceptions.end()) {
          def.exceptions.push_back(std::move(e));
        } else {
          same->values.insert(same->values.end(), e.values.begin(), e.values.end());
        }
      }
      return true;
    }
    auto flag = [&](bool& field) {
      std::optional<bool> b = Bool(v, key, name);
      if (!b) return false;
      field = *b;
      return true;
    };
    if (key == "enabled") return flag(def.rule.enabled);
    if (key == "capture") return flag(def.rule.capture);
    if (key == "warn_evttypes") return flag(def.warn_evttypes);
    if (key == "skip-if-unknown-filter") return flag(def.skip_if_unknown_filter);
    if (key == "capture_duration") {
      uint64_t ms = 0;
      if (!v.IsScalar() || !absl::SimpleAtoi(v.Scalar(), &ms)) {
        defs_.Error(At(v), name, "capture_duration is a number of milliseconds");
        return false;
      }
      def.rule.capture_duration_ms = ms;
      return true;
    }
    if (key == "source") return true;
    defs_.Error(At(v), name, absl::StrCat("key '", key, "' cannot be appended or overridden"));
    return false;
  }

  // `0.57.0`, or the old integer form (`17`), compared with the minor.
  void ReadEngineVersion(const YAML::Node& v) {
    const std::string item = "required_engine_version";
    if (!v.IsScalar()) {
      defs_.Error(At(v), item, "must be a version (0.57.0) or a number");
      return;
    }
    std::vector<std::string> parts = absl::StrSplit(v.Scalar(), '.');
    uint32_t want[3] = {0, 0, 0};
    if (parts.size() == 1) {
      if (!absl::SimpleAtoi(parts[0], &want[1])) parts.clear();
    } else if (parts.size() == 3) {
      for (int i = 0; i < 3; ++i) {
        if (!absl::SimpleAtoi(parts[i], &want[i])) parts.clear();
      }
    } else {
      parts.clear();
    }
    if (parts.empty()) {
      defs_.Error(At(v), item,
                  absl::StrCat("'", v.Scalar(), "' is not a version (0.57.0) or a number"));
      return;
    }
    const uint32_t have[3] = {kEngineVersionMajor, kEngineVersionMinor, kEngineVersionPatch};
    if (std::lexicographical_compare(have, have + 3, want, want + 3)) {
      defs_.Error(
          At(v), item,
          absl::StrCat("the file needs engine version ", v.Scalar(), "; Kestrel's is ",
                       kEngineVersionMajor, ".", kEngineVersionMinor, ".", kEngineVersionPatch));
    }
  }

  // Kestrel loads no plugins; its built-in container.* fields stand for
  // Falco's container plugin.
  void ReadPluginVersions(const YAML::Node& v) {
    const std::string item = "required_plugin_versions";
    if (!v.IsSequence()) {
      defs_.Error(At(v), item, "must be a list of {name, version}");
      return;
    }
    for (const YAML::Node& p : v) {
      if (!p.IsMap() || !p["name"] || !p["name"].IsScalar()) {
        defs_.Error(At(p), item, "each entry needs a 'name'");
        continue;
      }
      std::vector<std::string> names = {p["name"].Scalar()};
      if (const YAML::Node alts = p["alternatives"]; alts && alts.IsSequence()) {
        for (const YAML::Node& a : alts) {
          if (a.IsMap() && a["name"] && a["name"].IsScalar()) names.push_back(a["name"].Scalar());
        }
      }
      if (std::find(names.begin(), names.end(), "container") != names.end()) continue;
      defs_.Error(At(p), item,
                  absl::StrCat("needs the plugin '", absl::StrJoin(names, "' or '"),
                               "': Kestrel loads no plugins (only the container plugin's "
                               "fields are built in)"));
    }
  }

  // The place of a condition's value, marked verbatim when its text is
  // written on that line as it is (plain, or in quotes without escapes).
  Place ValuePlace(const YAML::Node& v) const {
    Place p = At(v);
    if (!v.IsScalar() || p.line == 0 || p.line > lines_.size()) return p;
    const std::string& text = v.Scalar();
    if (text.find('\n') != std::string::npos) return p;
    absl::string_view line = lines_[p.line - 1];
    if (p.column - 1 > line.size()) return p;
    absl::string_view rest = line.substr(p.column - 1);
    if (absl::StartsWith(rest, text)) {
      p.verbatim = true;
    } else if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'') &&
               absl::StartsWith(rest.substr(1), text)) {
      p.verbatim = true;
      p.quoted = true;
    }
    return p;
  }

  std::string file_;
  Definitions& defs_;
  std::vector<absl::string_view> lines_;
  uint32_t line_offset_ = 0;  // of the document being read
};

}  // namespace

void ReadRulesText(std::string_view yaml, std::string_view file, Definitions& defs) {
  FileReader(file, defs).Read(yaml);
}

}  // namespace kestrel::engine::rules
