#include "agent/rules/syscall_set.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/quote.h"
#include "engine/decode/syscall_names.h"
#include "engine/state/state_syscalls.h"

namespace kestrel::agent {
namespace {

constexpr size_t kRulesShown = 3;

}  // namespace

std::vector<ChosenSyscall> ChooseSyscalls(const std::vector<RuleSyscalls>& rules,
                                          const std::vector<std::string>& custom_set, bool repair,
                                          std::vector<std::string>& warnings, bool all) {
  std::map<uint32_t, std::vector<std::string>> reasons;
  if (all) {
    for (const engine::SyscallEntry& e : engine::AllSyscalls()) {
      reasons[e.id].push_back("base_syscalls.all");
    }
  }
  for (const RuleSyscalls& rule : rules) {
    const std::string reason = absl::StrCat("rule ", Quote(rule.rule));
    if (rule.any) {
      for (const engine::SyscallEntry& e : engine::AllSyscalls()) {
        reasons[e.id].push_back(absl::StrCat(reason, " (no evt.type: every syscall)"));
      }
      continue;
    }
    for (uint32_t id : rule.syscalls) reasons[id].push_back(reason);
  }
  std::set<uint32_t> removed;
  bool custom = false;
  for (const std::string& entry : custom_set) {
    const bool negative = entry.starts_with("!");
    const std::string name = negative ? entry.substr(1) : entry;
    std::optional<uint32_t> id = engine::SyscallId(name);
    if (!id) {
      warnings.push_back(
          absl::StrCat("base_syscalls.custom_set: ", Quote(name), " is not a syscall: ignored"));
      continue;
    }
    if (negative) {
      removed.insert(*id);
      continue;
    }
    custom = true;
    reasons[*id].push_back("base_syscalls.custom_set");
  }
  if (!custom || repair) {
    for (uint32_t id : engine::StateSyscalls()) {
      reasons[id].push_back(custom ? "base_syscalls.repair" : "state");
    }
  }
  std::vector<ChosenSyscall> set;
  for (auto& [id, why] : reasons) {
    if (removed.contains(id)) continue;
    set.push_back({id, std::move(why)});
  }
  return set;
}

std::string FormatSyscallSet(const std::vector<ChosenSyscall>& set) {
  std::string text;
  for (const ChosenSyscall& s : set) {
    absl::StrAppend(&text, std::string(engine::SyscallName(s.id)), " ");
    size_t rules = 0, hidden = 0;
    bool first = true;
    for (const std::string& reason : s.reasons) {
      const bool is_rule = reason.starts_with("rule ");
      if (is_rule && ++rules > kRulesShown) {
        ++hidden;
        continue;
      }
      absl::StrAppend(&text, first ? " " : ", ", reason);
      first = false;
    }
    if (hidden > 0) absl::StrAppend(&text, ", and ", hidden, " more rule", hidden > 1 ? "s" : "");
    text.push_back('\n');
  }
  return text;
}

std::vector<uint32_t> SyscallIds(const std::vector<ChosenSyscall>& set) {
  std::vector<uint32_t> ids;
  ids.reserve(set.size());
  for (const ChosenSyscall& s : set) ids.push_back(s.id);
  return ids;
}

std::vector<uint8_t> SyscallTable(const std::vector<ChosenSyscall>& set, size_t table_size) {
  std::vector<uint8_t> table(table_size, 0);
  for (const ChosenSyscall& s : set) {
    if (s.id < table_size) table[s.id] = 1;
  }
  return table;
}

std::string SyscallNameList(const std::vector<uint32_t>& ids, size_t named) {
  std::vector<std::string> names;
  for (uint32_t id : ids) {
    if (names.size() == named) {
      names.push_back(absl::StrCat("and ", ids.size() - named, " more"));
      break;
    }
    names.emplace_back(engine::SyscallName(id));
  }
  return absl::StrJoin(names, ", ");
}

}  // namespace kestrel::agent
