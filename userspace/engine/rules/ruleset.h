// A set of rules loaded from Falco-format rules files, compiled into one
// filter program and matched per event.
//
// Loading reads the files in order, merges `append`/`override` items into
// the ones they name, substitutes lists and macros into every condition,
// compiles exceptions in as `and not (...)`, and adds each enabled rule's
// condition to one shared FilterProgram (a macro forty rules use is one node,
// evaluated once per event). Rules are indexed by the syscalls their
// condition can match, so an event only meets the rules that can match it,
// and the rules of one event type are indexed together by the exact values
// and affixes their conditions ask of a field (rule_index.h), so an event
// only evaluates the rules whose key predicate it meets.
#ifndef KESTREL_ENGINE_RULES_RULESET_H_
#define KESTREL_ENGINE_RULES_RULESET_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "engine/filter/field_binding.h"
#include "engine/filter/filter_program.h"
#include "engine/rules/diagnostic.h"
#include "engine/rules/input_file.h"
#include "engine/rules/priority.h"

namespace kestrel::engine::rules {

// The Falco engine version whose rules language Kestrel reads: files whose
// `required_engine_version` is at most this load (Falco's public rules
// files ask for 0.57.0). The old integer form (`2`, `17`) compares with the
// minor number, as Falco does.
inline constexpr uint32_t kEngineVersionMajor = 0;
inline constexpr uint32_t kEngineVersionMinor = 57;
inline constexpr uint32_t kEngineVersionPatch = 0;

struct LoadOptions {
  // A rule naming a field Kestrel lacks is an error instead of a skip.
  bool strict = false;
  // Each rules file is a regular file of at most this many bytes.
  size_t max_file_bytes = kDefaultMaxInputFileBytes;
  // When set and true, the load stops early with a Cancelled status: a
  // reload of a large file need not hold up a shutdown.
  const std::atomic<bool>* cancelled = nullptr;
  // Keep what `kestrel rules describe` prints (RulesDescription): each
  // rule's compiled condition, the macros and lists, what uses them.
  bool describe = false;

  bool Cancelled() const { return cancelled != nullptr && cancelled->load(); }
};

struct Rule {
  std::string name;
  std::string desc;
  std::string condition_text;  // as written, after append/override merges
  std::string output;
  std::string source = "syscall";
  Priority priority = Priority::kDebug;
  std::vector<std::string> tags;
  bool enabled = true;  // as the file says, then by SetEnabledBy*
  bool capture = false;
  uint64_t capture_duration_ms = 0;  // 0: the engine's default
  std::string file;
  uint32_t line = 0;

  // The compiled condition (macros, lists and exceptions in); valid only
  // when `compiled`.
  filter::FilterProgram::ConditionId condition = 0;
  bool compiled = false;
  // The syscall numbers this rule can match; empty with any_syscall set
  // when the condition does not constrain evt.type.
  std::vector<uint32_t> syscalls;
  bool any_syscall = false;
  // The condition can be true for a failed call (result_analysis.h): the
  // probe must then keep failed calls.
  bool matches_failed = true;
  // The condition reads a field whose value can arrive after the event
  // (FieldResolver::ArrivesLate): it may judge an event once that field is
  // there (EvaluateLate, Rejudge).
  bool reads_late_fields = false;
  // The names the condition compares fd.*ip.name with.
  std::vector<std::string> address_names;
};

// What Falco's describe-rules shows beyond Rule, kept when
// LoadOptions::describe is set. The macros and lists named are every one a
// condition reaches (through macros, lists in lists and exception values
// naming lists), sorted.
struct RuleDetails {
  std::string condition_compiled;  // filter::ToString of the compiled tree
  std::vector<std::string> macros;
  std::vector<std::string> lists;
  std::vector<std::string> exceptions;  // names, in the file's order
};
struct MacroDetails {
  std::string name;
  std::string condition;           // as written, after appends
  std::string condition_compiled;  // substituted; empty when it cannot be
  std::string file;
  uint32_t line = 0;
  bool used = false;  // a loaded rule reaches it
  std::vector<std::string> macros;
  std::vector<std::string> lists;
};
struct ListDetails {
  std::string name;
  std::vector<std::string> items;           // as written, after appends
  std::vector<std::string> items_compiled;  // lists in it substituted
  std::string file;
  uint32_t line = 0;
  bool used = false;  // a loaded rule reaches it
  std::vector<std::string> lists;
};
struct RulesDescription {
  std::vector<RuleDetails> rules;  // by index into Ruleset::rules()
  std::vector<MacroDetails> macros;
  std::vector<ListDetails> lists;
};

// The syscalls the enabled rules can match, for the probe's syscall set.
struct SyscallNeeds {
  std::vector<uint32_t> syscalls;                // sorted, unique
  bool any = false;                              // some rule matches every syscall
  std::vector<std::string> unconstrained_rules;  // the rules that make `any`
};

class RuleIndex;

class Ruleset {
 public:
  // Loads `paths` in order (a directory: its *.yaml / *.yml files sorted by
  // name) and compiles every enabled rule against `fields`. Errors and
  // warnings go to `diags` (when not null) in the order found; the result
  // is an error when any diagnostic is an error. Rules skipped for a field
  // Kestrel lacks are warnings (errors under options.strict).
  static absl::StatusOr<std::unique_ptr<Ruleset>> Load(const std::vector<std::string>& paths,
                                                       const LoadOptions& options,
                                                       const filter::FieldResolver& fields,
                                                       std::vector<Diagnostic>* diags);

  // YAML text given by a program rather than a file, loaded after the
  // files; `name` stands for a file in diagnostics.
  struct Text {
    std::string name;
    std::string yaml;
  };
  static absl::StatusOr<std::unique_ptr<Ruleset>> Load(const std::vector<std::string>& paths,
                                                       const std::vector<Text>& texts,
                                                       const LoadOptions& options,
                                                       const filter::FieldResolver& fields,
                                                       std::vector<Diagnostic>* diags);

  // The same from YAML text, `file` naming it in diagnostics (tests, stdin).
  static absl::StatusOr<std::unique_ptr<Ruleset>> LoadText(std::string_view yaml,
                                                           std::string_view file,
                                                           const LoadOptions& options,
                                                           const filter::FieldResolver& fields,
                                                           std::vector<Diagnostic>* diags);

  ~Ruleset();
  Ruleset(const Ruleset&) = delete;
  Ruleset& operator=(const Ruleset&) = delete;

  // Every rule loaded and not skipped, enabled or not, in load order.
  const std::vector<Rule>& rules() const { return rules_; }
  // Rules left out with a warning (a field Kestrel lacks, another source).
  size_t skipped() const { return skipped_; }

  // Falco's -D / -t / -T: enable or disable rules by name or by tag. A
  // rule disabled in its file can be enabled here (when it compiled).
  void SetEnabledByName(std::string_view name, bool on);
  void SetEnabledByTag(std::string_view tag, bool on);
  // Rules less severe than `p` are not evaluated (`priority: notice`).
  void SetMinimumPriority(Priority p);
  Priority minimum_priority() const { return minimum_priority_; }

  // The union of the enabled, evaluated rules' syscalls.
  SyscallNeeds Syscalls() const;
  // The names the enabled, evaluated rules compare fd.*ip.name with, for
  // the resolver to resolve (dns::AddressNames); sorted, each once.
  std::vector<std::string> AddressNames() const;

  // Evaluates the enabled rules that can match an event of syscall
  // `syscall_nr`, reading fields through `reader`, and calls on_match for
  // each match in load order; `first_only` stops at the first
  // (rule_matching: first). Events with no syscall are not evaluated.
  void Evaluate(uint32_t syscall_nr, filter::FieldReader& reader, bool first_only,
                absl::FunctionRef<void(const Rule&)> on_match);
  // The same, for an event whose late fields (FieldResolver::ArrivesLate)
  // may still arrive: the rules that read them are not evaluated now but
  // passed to on_late by index (into rules()), in load order, for the
  // caller to judge the event by them once those fields are there
  // (Rejudge). With first_only, a match among the others ends it.
  void EvaluateLate(uint32_t syscall_nr, filter::FieldReader& reader, bool first_only,
                    absl::FunctionRef<void(const Rule&)> on_match,
                    absl::FunctionRef<void(uint32_t)> on_late);
  // Whether a rule that can match `syscall_nr` reads a field arriving late.
  bool JudgesLate(uint32_t syscall_nr) const {
    return syscall_nr < late_by_syscall_.size() ? late_by_syscall_[syscall_nr] : late_any_syscall_;
  }
  // Evaluates rules `indexes` (into rules()) on the event `reader` reads
  // now, calling on_match for each match in that order.
  void Rejudge(std::span<const uint32_t> indexes, filter::FieldReader& reader,
               absl::FunctionRef<void(const Rule&)> on_match);
  // False when no enabled rule can match an event of `syscall_nr`, so a
  // caller can skip preparing the event's fields (close under rules that
  // only watch opens).
  bool Judges(uint32_t syscall_nr) const { return !CandidatesOf(syscall_nr).empty(); }

  // Evaluates each candidate rule's condition on its own, one after the
  // other (the reference the rule index is checked against), instead of
  // through the index. Alerts are the same either way.
  void SetRuleByRule(bool on) { rule_by_rule_ = on; }

  // Loaded with LoadOptions::describe: what describe-rules prints; else null.
  const RulesDescription* description() const { return description_.get(); }

  // The compiled program, for its size and counters.
  const filter::FilterProgram& program() const { return *program_; }

 private:
  friend class RulesetBuilder;
  Ruleset();
  void Reindex();
  // Evaluate's work, leaving out the rules reading late fields when
  // `skip_late`; true when some rule matched.
  bool EvaluateCandidates(uint32_t syscall_nr, filter::FieldReader& reader, bool first_only,
                          bool skip_late, absl::FunctionRef<void(const Rule&)> on_match);
  const std::vector<uint32_t>& CandidatesOf(uint32_t syscall_nr) const {
    return syscall_nr < by_syscall_.size() ? by_syscall_[syscall_nr] : any_syscall_rules_;
  }

  std::vector<Rule> rules_;
  std::unique_ptr<RulesDescription> description_;
  size_t skipped_ = 0;
  Priority minimum_priority_ = Priority::kDebug;
  std::unique_ptr<filter::FilterProgram> program_;
  // By syscall number: the indexes into rules_ of the active rules that can
  // match it, in load order (unconstrained rules merged in).
  std::vector<std::vector<uint32_t>> by_syscall_;
  std::vector<uint32_t> any_syscall_rules_;  // for numbers past by_syscall_
  // By syscall number: whether a candidate rule reads a field arriving late.
  std::vector<bool> late_by_syscall_;
  bool late_any_syscall_ = false;
  bool rule_by_rule_ = false;
  // evt.type's field id: the syscall index already has its predicates.
  std::optional<uint32_t> evt_type_field_;
  // By syscall number, the index of by_syscall_'s list (shared by equal
  // lists); null for an empty list.
  std::vector<std::shared_ptr<RuleIndex>> index_by_syscall_;
  std::shared_ptr<RuleIndex> any_syscall_index_;
};

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_RULESET_H_
