#include "run_tamper_watch.h"

#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libpman.h"
#include "run_syscall_set.h"
#include "settings_keys.h"

namespace kestrel::cli {
namespace {

const char* DropClassName(uint8_t c) {
  switch (c) {
    case KESTREL_DROP_SAMPLED:
      return "sampled";
    case KESTREL_DROP_NEVER:
      return "never";
    case KESTREL_DROP_ALWAYS:
      return "always";
  }
  return "unknown";
}

// A wholesale rewrite of the table still makes one readable line.
std::string Names(const std::vector<uint32_t>& ids) { return SyscallNameList(ids, 16); }

}  // namespace

std::string OmittedParamsText(uint32_t omitted) {
  if (omitted == 0) return "none";
  std::vector<std::string> names;
  if (omitted & KESTREL_OMIT_OPEN_PATH) names.push_back("open path");
  if (omitted & ~KESTREL_OMIT_ALL)
    names.push_back(absl::StrCat("0x", absl::Hex(omitted & ~KESTREL_OMIT_ALL)));
  return absl::StrJoin(names, ",");
}

std::optional<ProbeTuning> ProbeTuning::Read(pman_handle* handle) {
  ProbeTuning t;
  if (!t.ReadFrom(handle)) return std::nullopt;
  return t;
}

bool ProbeTuning::ReadFrom(pman_handle* handle) {
  const size_t n = pman_syscall_table_size();
  interesting.resize(n);
  drop_classes.resize(n);
  return pman_get_capture_settings(handle, &settings) == 0 &&
         pman_get_syscall_tables(handle, interesting.data(), drop_classes.data(), n) == 0 &&
         pman_get_omitted_params(handle, &omitted_params) == 0;
}

bool ProbeTuning::SameAs(const ProbeTuning& other) const {
  return std::memcmp(&settings, &other.settings, sizeof settings) == 0 &&
         interesting == other.interesting && drop_classes == other.drop_classes &&
         omitted_params == other.omitted_params;
}

std::vector<std::string> DescribeTuningChanges(const ProbeTuning& was, const ProbeTuning& now) {
  std::vector<std::string> changes;
  bool keys_differ = false;
  for (const std::string& key : SettingKeys()) {
    absl::StatusOr<std::string> before = FormatSetting(was.settings, key);
    absl::StatusOr<std::string> after = FormatSetting(now.settings, key);
    if (before.ok() && after.ok() && *before != *after) {
      changes.push_back(absl::StrCat(key, " ", *before, " -> ", *after));
      keys_differ = true;
    }
  }
  if (!keys_differ && std::memcmp(&was.settings, &now.settings, sizeof now.settings) != 0) {
    changes.push_back("settings outside the keys (derived fields, padding)");
  }
  std::vector<uint32_t> on, off;
  for (uint32_t id = 0; id < now.interesting.size() && id < was.interesting.size(); ++id) {
    if (was.interesting[id] == now.interesting[id]) continue;
    (now.interesting[id] != 0 ? on : off).push_back(id);
  }
  if (!off.empty()) changes.push_back(absl::StrCat("syscalls off: ", Names(off)));
  if (!on.empty()) changes.push_back(absl::StrCat("syscalls on: ", Names(on)));
  // By (from, to): "drop class sampled -> never: getppid, read".
  std::map<std::pair<uint8_t, uint8_t>, std::vector<uint32_t>> moved;
  for (uint32_t id = 0; id < now.drop_classes.size() && id < was.drop_classes.size(); ++id) {
    if (was.drop_classes[id] != now.drop_classes[id]) {
      moved[{was.drop_classes[id], now.drop_classes[id]}].push_back(id);
    }
  }
  for (const auto& [classes, ids] : moved) {
    changes.push_back(absl::StrCat("drop class ", DropClassName(classes.first), " -> ",
                                   DropClassName(classes.second), ": ", Names(ids)));
  }
  if (was.omitted_params != now.omitted_params) {
    changes.push_back(absl::StrCat("omitted parameters ", OmittedParamsText(was.omitted_params),
                                   " -> ", OmittedParamsText(now.omitted_params)));
  }
  return changes;
}

void TamperWatch::Expect() { expected_ = ProbeTuning::Read(handle_); }

std::optional<engine::alerts::Alert> TamperWatch::Check(uint64_t wall_ns) {
  if (!expected_ || !now_.ReadFrom(handle_) || now_.SameAs(*expected_)) return std::nullopt;
  const std::vector<std::string> changes = DescribeTuningChanges(*expected_, now_);
  std::swap(*expected_, now_);
  if (changes.empty()) return std::nullopt;
  ++changes_seen_;
  const std::string text = absl::StrJoin(changes, "; ");
  engine::alerts::Alert alert;
  alert.time_ns = wall_ns;
  alert.rule = kTamperRule;
  alert.priority = engine::rules::Priority::kCritical;
  alert.source = "internal";
  alert.hostname = engine::alerts::LocalHostname();
  alert.output = absl::StrCat("The probe was changed by another process: ", text);
  alert.output_fields.push_back({"probe.changes", text, engine::alerts::FieldJsonKind::kString});
  return alert;
}

}  // namespace kestrel::cli
