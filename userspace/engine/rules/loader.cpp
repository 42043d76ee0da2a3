// Ruleset::Load: files read in order into Definitions, then each rule's
// condition built, checked for fields Kestrel lacks, compiled into the
// shared program and analysed for the syscalls it can match.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/rules/condition_builder.h"
#include "engine/rules/definitions.h"
#include "engine/rules/input_file.h"
#include "engine/rules/result_analysis.h"
#include "engine/rules/ruleset.h"
#include "engine/rules/syscall_analysis.h"

namespace kestrel::engine::rules {
namespace {

namespace fs = std::filesystem;

// Calls `visit` with each comparison of `e`, left to right.
void ForEachComparison(const filter::Expr& e,
                       absl::FunctionRef<void(const filter::Comparison&)> visit) {
  if (const auto* c = std::get_if<filter::Comparison>(&e.node)) return visit(*c);
  if (const auto* n = std::get_if<filter::Not>(&e.node)) {
    return ForEachComparison(*n->operand, visit);
  }
  if (const auto* a = std::get_if<filter::And>(&e.node)) {
    for (const auto& o : a->operands) ForEachComparison(*o, visit);
  }
  if (const auto* o = std::get_if<filter::Or>(&e.node)) {
    for (const auto& x : o->operands) ForEachComparison(*x, visit);
  }
}

// Every named field `e` reads, those inside join(), concat() and getopt()
// too.
void ForEachField(const filter::Expr& e, std::vector<const filter::FieldRef*>& out) {
  const auto add = [&](const filter::FieldRef& f) { out.push_back(&f); };
  ForEachComparison(e, [&](const filter::Comparison& c) {
    filter::ForEachNamedField(c.field, add);
    if (const auto* f = std::get_if<filter::FieldRef>(&c.operand.value)) {
      filter::ForEachNamedField(*f, add);
    }
  });
}

std::string FieldName(const filter::FieldRef& f) {
  return f.index ? absl::StrCat(f.name, "[", *f.index, "]") : f.name;
}

// The names `e` compares fd.*ip.name with (FieldResolver::NamesAddresses),
// into `names`; an error naming the first comparison that is not =, != or
// in with names (Falco's rule for these fields).
absl::Status CollectAddressNames(const filter::Expr& e, const filter::FieldResolver& fields,
                                 std::vector<std::string>& names) {
  absl::Status status;
  ForEachComparison(e, [&](const filter::Comparison& c) {
    if (!status.ok() || !fields.NamesAddresses(c.field)) return;
    const bool op_ok = c.op == filter::CompareOp::kEq || c.op == filter::CompareOp::kNe ||
                       c.op == filter::CompareOp::kIn;
    if (!op_ok || !c.field.transformers.empty()) {
      status = absl::InvalidArgumentError(
          absl::StrCat(FieldName(c.field), " is compared with names by =, != and in only, not ",
                       c.field.transformers.empty() ? std::string(filter::CompareOpName(c.op))
                                                    : "through a transformer"));
    } else if (const auto* one = std::get_if<filter::Literal>(&c.operand.value)) {
      names.push_back(one->text);
    } else if (const auto* list = std::get_if<std::vector<filter::Literal>>(&c.operand.value)) {
      for (const filter::Literal& l : *list) names.push_back(l.text);
    } else {
      status = absl::InvalidArgumentError(
          absl::StrCat(FieldName(c.field), " is compared with names, not with another field"));
    }
  });
  return status;
}

// What a condition is when every comparison on a field nothing here fills
// is false, as a comparison on an absent field is.
enum class Truth { kFalse, kTrue, kUnknown };

bool Unfilled(const filter::Comparison& c, const filter::FieldResolver& fields) {
  bool unfilled = false;
  const auto check = [&](const filter::FieldRef& f) {
    unfilled = unfilled || !fields.Unfilled(f).empty();
  };
  filter::ForEachNamedField(c.field, check);
  if (const auto* other = std::get_if<filter::FieldRef>(&c.operand.value)) {
    filter::ForEachNamedField(*other, check);
  }
  return unfilled;
}

Truth Fold(const filter::Expr& e, const filter::FieldResolver& fields) {
  if (const auto* c = std::get_if<filter::Comparison>(&e.node)) {
    return Unfilled(*c, fields) ? Truth::kFalse : Truth::kUnknown;
  }
  if (const auto* n = std::get_if<filter::Not>(&e.node)) {
    const Truth t = Fold(*n->operand, fields);
    return t == Truth::kUnknown ? t : t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
  }
  const bool is_and = std::holds_alternative<filter::And>(e.node);
  if (!is_and && !std::holds_alternative<filter::Or>(e.node)) return Truth::kUnknown;
  const std::vector<filter::ExprPtr>& operands =
      is_and ? std::get<filter::And>(e.node).operands : std::get<filter::Or>(e.node).operands;
  // The value that decides alone: false for `and`, true for `or`.
  const Truth decisive = is_and ? Truth::kFalse : Truth::kTrue;
  bool all_other = true;
  for (const filter::ExprPtr& o : operands) {
    const Truth t = Fold(*o, fields);
    if (t == decisive) return decisive;
    all_other = all_other && t != Truth::kUnknown;
  }
  return all_other ? (is_and ? Truth::kTrue : Truth::kFalse) : Truth::kUnknown;
}

// Whether `text` (spaces aside, as Falco reads it) names a field Kestrel
// has: `proc.name`, `proc.aname[2]`.
bool NamesField(std::string_view text, const filter::FieldResolver& fields) {
  std::string t(text);
  t.erase(std::remove_if(t.begin(), t.end(),
                         [](char c) { return absl::ascii_isspace(static_cast<unsigned char>(c)); }),
          t.end());
  if (t.find('.') == std::string::npos) return false;
  filter::FieldRef f;
  if (const size_t open = t.find('['); open != std::string::npos) {
    if (t.back() != ']') return false;
    f.index = t.substr(open + 1, t.size() - open - 2);
    t.resize(open);
  }
  f.name = t;
  return fields.Resolve(f).ok();
}

// Where the output names evt.dir as a field (`%evt.dir`), or npos.
size_t EvtDirInOutput(std::string_view output) {
  constexpr std::string_view kName = "evt.dir";
  for (size_t at = output.find(kName); at != std::string_view::npos;
       at = output.find(kName, at + 1)) {
    const size_t end = at + kName.size();
    const bool starts = at > 0 && (output[at - 1] == '%' || output[at - 1] == '(');
    const bool ends =
        end == output.size() || !(absl::ascii_isalnum(static_cast<unsigned char>(output[end])) ||
                                  output[end] == '_' || output[end] == '.');
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

// Whether `cond` matches no syscall by its evt.type checks alone, with no
// comparison that can never hold (evt.num = 0) folded.
bool ContradictsOnEvtType(const filter::Expr& cond) {
  const SyscallSet unfolded = AnalyzeSyscalls(cond, /*fold_evt_num=*/false);
  return !unfolded.any && unfolded.syscalls.empty();
}

// The files a path names: itself, or a directory's *.yaml / *.yml sorted.
std::vector<std::string> FilesOf(const std::string& path, const LoadOptions& options,
                                 Definitions& defs) {
  std::error_code ec;
  std::error_code is_dir;
  if (!fs::is_directory(path, is_dir)) return {path};
  std::vector<std::string> files = RulesFilesOf(path, ec);
  if (ec) {
    defs.Error(Place{path}, "", absl::StrCat("cannot list the directory: ", ec.message()));
  } else if (files.empty()) {
    // Easy to miss: a monitor that starts with no rules raises nothing.
    const char* why = "the directory holds no *.yaml or *.yml file";
    options.strict ? defs.Error(Place{path}, "", why) : defs.Warn(Place{path}, "", why);
  }
  return files;
}

}  // namespace

class RulesetBuilder {
 public:
  static absl::StatusOr<std::unique_ptr<Ruleset>> Build(Definitions& defs,
                                                        const LoadOptions& options,
                                                        const filter::FieldResolver& fields,
                                                        std::vector<Diagnostic>* diags) {
    std::unique_ptr<Ruleset> set(new Ruleset());
    set->skipped_ = defs.skipped;
    filter::FieldRef evt_type;
    evt_type.name = "evt.type";
    if (absl::StatusOr<filter::FieldSpec> type = fields.Resolve(evt_type); type.ok()) {
      set->evt_type_field_ = type->id;
    }
    if (options.describe) set->description_ = std::make_unique<RulesDescription>();
    if (!defs.has_error()) {
      ConditionBuilder builder(
          defs, [&fields](std::string_view text) { return NamesField(text, fields); });
      for (const RuleDef& def : defs.rules) {
        if (options.Cancelled()) return absl::CancelledError("the load was cancelled");
        Compile(def, builder, options, fields, defs, *set);
      }
      builder.Finish();
      if (set->description_) builder.DescribeDefinitions(*set->description_);
    }
    set->Reindex();
    const bool failed = defs.has_error();
    size_t errors = 0;
    for (const Diagnostic& d : defs.diags) errors += d.severity == Diagnostic::Severity::kError;
    if (diags != nullptr) {
      diags->insert(diags->end(), defs.diags.begin(), defs.diags.end());
    }
    if (failed) {
      const Diagnostic& first = *std::find_if(defs.diags.begin(), defs.diags.end(), [](auto& d) {
        return d.severity == Diagnostic::Severity::kError;
      });
      return absl::InvalidArgumentError(
          absl::StrCat(errors, errors == 1 ? " error" : " errors",
                       " in the rules; the first: ", first.ToString()));
    }
    return set;
  }

 private:
  // A rule reading fields nothing on this machine fills is named, never
  // silently dead: whether it can fire at all here, and which fields and
  // why.
  static void NameUnfilledFields(const RuleDef& def, const filter::Expr& cond,
                                 const std::vector<const filter::FieldRef*>& refs,
                                 const LoadOptions& options, const filter::FieldResolver& fields,
                                 Definitions& defs) {
    std::vector<std::string> named;
    std::string why;
    for (const filter::FieldRef* f : refs) {
      const std::string reason = fields.Unfilled(*f);
      const std::string name = FieldName(*f);
      if (reason.empty() || std::find(named.begin(), named.end(), name) != named.end()) continue;
      named.push_back(name);
      absl::StrAppend(&why, why.empty() ? "" : "; ", name, " ", reason);
    }
    if (named.empty()) return;
    const bool dead = Fold(cond, fields) == Truth::kFalse;
    const std::string message =
        absl::StrCat(dead ? "cannot fire here: "
                          : "reads fields nothing here fills, so comparisons on them are false: ",
                     why);
    const std::string item = absl::StrCat("rule '", def.rule.name, "'");
    if (options.strict) {
      defs.Error(def.condition_place, item, message);
    } else {
      defs.Warn(def.condition_place, item, message);
    }
  }

  static void Compile(const RuleDef& def, ConditionBuilder& builder, const LoadOptions& options,
                      const filter::FieldResolver& fields, Definitions& defs, Ruleset& set) {
    const std::string item = absl::StrCat("rule '", def.rule.name, "'");
    filter::ExprPtr cond = builder.Build(def);
    if (!cond) return;
    if (const size_t at = EvtDirInOutput(def.rule.output); at != std::string::npos) {
      defs.Warn(Within(def.output_place, 1, static_cast<uint32_t>(at + 1)), item,
                "evt.dir is deprecated: every event is an exit event, so the output always "
                "shows '<'");
    }
    std::vector<const filter::FieldRef*> refs;
    ForEachField(*cond, refs);
    std::vector<std::string> missing;
    std::string reasons;  // for the fields of Falco's Kestrel leaves out
    for (const filter::FieldRef* f : refs) {
      absl::StatusOr<filter::FieldSpec> spec = fields.Resolve(*f);
      if (!spec.ok() && absl::IsNotFound(spec.status())) {
        const std::string name = FieldName(*f);
        if (std::find(missing.begin(), missing.end(), name) == missing.end()) {
          missing.push_back(name);
          if (const std::string absent = fields.WhyAbsent(f->name); !absent.empty()) {
            absl::StrAppend(&reasons, " (", f->name, ": ", absent, ")");
          }
        }
      }
    }
    if (!missing.empty()) {
      const std::string why =
          absl::StrCat(missing.size() == 1 ? "field '" : "fields '", absl::StrJoin(missing, "', '"),
                       missing.size() == 1 ? "' is" : "' are", " not one Kestrel has", reasons);
      // As Falco: an error, unless the rule says to skip it. A disabled
      // rule is skipped too, unless strict.
      if (def.skip_if_unknown_filter) {
        defs.Warn(def.condition_place, item,
                  absl::StrCat(why, ": rule skipped (skip-if-unknown-filter)"));
        ++set.skipped_;
      } else if (!def.rule.enabled && !options.strict) {
        defs.Warn(def.condition_place, item, absl::StrCat(why, ": rule skipped (disabled)"));
        ++set.skipped_;
      } else {
        defs.Error(def.condition_place, item, why);
      }
      return;
    }
    if (def.rule.enabled) NameUnfilledFields(def, *cond, refs, options, fields, defs);
    std::vector<std::string> address_names;
    if (absl::Status s = CollectAddressNames(*cond, fields, address_names); !s.ok()) {
      defs.Error(def.condition_place, item,
                 absl::StrCat("condition does not compile: ", s.message()));
      return;
    }
    absl::StatusOr<filter::FilterProgram::ConditionId> id = set.program_->Add(*cond, fields);
    if (!id.ok()) {
      defs.Error(def.condition_place, item,
                 absl::StrCat("condition does not compile: ", id.status().message()));
      return;
    }
    Rule rule = def.rule;
    rule.reads_late_fields = std::any_of(refs.begin(), refs.end(), [&](const filter::FieldRef* f) {
      return fields.ArrivesLate(*f);
    });
    rule.address_names = std::move(address_names);
    rule.condition_text = def.condition;
    rule.condition = *id;
    rule.compiled = true;
    const SyscallSet syscalls = AnalyzeSyscalls(*cond);
    rule.syscalls = syscalls.syscalls;
    rule.any_syscall = syscalls.any;
    rule.matches_failed = !MatchesOnlySuccess(*cond);
    if (syscalls.any && def.warn_evttypes) {
      defs.Warn(def.condition_place, item,
                "the condition does not constrain evt.type: it is evaluated for every syscall");
    } else if (!syscalls.any && syscalls.syscalls.empty() && def.warn_evttypes &&
               ContradictsOnEvtType(*cond)) {
      // Only when its evt.type checks contradict: a comparison that can
      // never hold (Falco's `evt.num = 0` placeholder) is deliberate.
      defs.Warn(def.condition_place, item, "the condition can match no syscall");
    }
    set.rules_.push_back(std::move(rule));
    if (set.description_) {
      RuleDetails details;
      details.condition_compiled = filter::ToString(*cond);
      builder.RuleRefs(def, details);
      set.description_->rules.push_back(std::move(details));
    }
  }
};

absl::StatusOr<std::unique_ptr<Ruleset>> Ruleset::Load(const std::vector<std::string>& paths,
                                                       const LoadOptions& options,
                                                       const filter::FieldResolver& fields,
                                                       std::vector<Diagnostic>* diags) {
  return Load(paths, {}, options, fields, diags);
}

absl::StatusOr<std::unique_ptr<Ruleset>> Ruleset::Load(const std::vector<std::string>& paths,
                                                       const std::vector<Text>& texts,
                                                       const LoadOptions& options,
                                                       const filter::FieldResolver& fields,
                                                       std::vector<Diagnostic>* diags) {
  Definitions defs;
  for (const std::string& path : paths) {
    for (const std::string& file : FilesOf(path, options, defs)) {
      if (options.Cancelled()) return absl::CancelledError("the load was cancelled");
      absl::StatusOr<std::string> text = ReadInputFile(file, options.max_file_bytes);
      if (!text.ok()) {
        defs.Error(Place{file}, "", std::string(text.status().message()));
        continue;
      }
      ReadRulesText(*text, file, defs);
    }
  }
  for (const Text& text : texts) {
    if (absl::Status s = CheckInputSize(text.yaml.size(), options.max_file_bytes); !s.ok()) {
      defs.Error(Place{text.name}, "", std::string(s.message()));
      continue;
    }
    ReadRulesText(text.yaml, text.name, defs);
  }
  return RulesetBuilder::Build(defs, options, fields, diags);
}

absl::StatusOr<std::unique_ptr<Ruleset>> Ruleset::LoadText(std::string_view yaml,
                                                           std::string_view file,
                                                           const LoadOptions& options,
                                                           const filter::FieldResolver& fields,
                                                           std::vector<Diagnostic>* diags) {
  Definitions defs;
  ReadRulesText(yaml, file, defs);
  return RulesetBuilder::Build(defs, options, fields, diags);
}

}  // namespace kestrel::engine::rules
