#include "agent/control/tamper_watch.h"

#include <cstring>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/probe/settings_keys.h"
#include "agent/rules/syscall_set.h"
#include "libpman.h"

namespace kestrel::agent {
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

void TamperWatch::ExpectOwn(const OwnChange& own) {
  if (!expected_ || !now_.ReadFrom(handle_)) return Expect();
  for (uint32_t id : own.syscalls) {
    if (id < now_.interesting.size()) expected_->interesting[id] = now_.interesting[id];
  }
  if (own.settings) expected_->settings = now_.settings;
  if (own.drop_classes) expected_->drop_classes = now_.drop_classes;
  if (own.omitted_params) expected_->omitted_params = now_.omitted_params;
}

bool TamperWatch::PutBack() {
  const ProbeTuning& want = *expected_;
  if (std::memcmp(&now_.settings, &want.settings, sizeof want.settings) != 0) {
    pman_update_capture_settings(handle_, &want.settings);
  }
  for (uint32_t id = 0; id < want.interesting.size(); ++id) {
    if (now_.interesting[id] != want.interesting[id]) {
      pman_mark_single_64bit_syscall(handle_, id, want.interesting[id] != 0);
    }
    if (now_.drop_classes[id] != want.drop_classes[id]) {
      pman_set_syscall_drop_class(handle_, id, want.drop_classes[id]);
    }
  }
  if (now_.omitted_params != want.omitted_params) {
    pman_set_omitted_params(handle_, want.omitted_params);
  }
  return now_.ReadFrom(handle_) && now_.SameAs(want);
}

namespace {

engine::alerts::Alert InternalAlert(uint64_t wall_ns, std::string output, const std::string& text) {
  engine::alerts::Alert alert;
  alert.time_ns = wall_ns;
  alert.rule = kTamperRule;
  alert.priority = engine::rules::Priority::kCritical;
  alert.source = "internal";
  alert.hostname = engine::alerts::LocalHostname();
  alert.output = std::move(output);
  alert.output_fields.push_back({"probe.changes", text, engine::alerts::FieldJsonKind::kString});
  return alert;
}

}  // namespace

std::vector<engine::alerts::Alert> TamperWatch::Check(uint64_t wall_ns) {
  if (!expected_ || !now_.ReadFrom(handle_) || now_.SameAs(*expected_)) return {};
  const std::vector<std::string> changes = DescribeTuningChanges(*expected_, now_);
  if (changes.empty()) {
    std::swap(*expected_, now_);
    return {};
  }
  ++changes_seen_;
  const std::string text = absl::StrJoin(changes, "; ");
  std::vector<engine::alerts::Alert> alerts;
  alerts.push_back(InternalAlert(
      wall_ns, absl::StrCat("The probe was changed by another process: ", text), text));
  if (!repair_) {
    std::swap(*expected_, now_);
    return alerts;
  }
  if (PutBack()) {
    ++repairs_;
    alerts.push_back(InternalAlert(
        wall_ns, absl::StrCat("The probe was put back as the rules need it: ", text), text));
  } else {
    // Kept as it is now, so the next change is told apart from this one.
    std::swap(*expected_, now_);
    alerts.push_back(InternalAlert(
        wall_ns, absl::StrCat("The probe could not be put back; it stays changed: ", text), text));
  }
  return alerts;
}

}  // namespace kestrel::agent
