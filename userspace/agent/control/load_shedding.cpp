#include "agent/control/load_shedding.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "agent/quote.h"
#include "engine/state/state_syscalls.h"
#include "libpman.h"
#include "shared/capture_settings.h"

namespace kestrel::agent {

// Lines name this many thinned syscalls, then count the rest.
constexpr size_t kNamedSyscalls = 8;

SheddingPlan PlanShedding(const std::vector<ChosenSyscall>& set,
                          const std::vector<RuleSyscalls>& rules, engine::rules::Priority keep,
                          size_t table_size) {
  SheddingPlan plan;
  plan.classes.assign(table_size, KESTREL_DROP_NEVER);
  std::set<uint32_t> kept(engine::StateSyscalls().begin(), engine::StateSyscalls().end());
  for (const RuleSyscalls& rule : rules) {
    if (!engine::rules::AtLeast(rule.priority, keep)) continue;
    if (rule.any) {
      plan.rule_needing_all = rule.rule;
      return plan;
    }
    kept.insert(rule.syscalls.begin(), rule.syscalls.end());
  }
  for (const ChosenSyscall& s : set) {
    if (s.id >= table_size || kept.contains(s.id)) continue;
    plan.classes[s.id] = KESTREL_DROP_SAMPLED;
    plan.sampled.push_back(s.id);
  }
  return plan;
}

std::string DescribeShedding(const SheddingPlan& plan, const LoadSheddingConfig& config) {
  if (!config.enabled) return "load shedding off";
  if (!plan.rule_needing_all.empty()) {
    return absl::StrCat("load shedding has nothing to thin: rule ", Quote(plan.rule_needing_all),
                        " needs every syscall");
  }
  if (plan.sampled.empty()) {
    return absl::StrCat("load shedding has nothing to thin: rules at or above ",
                        std::string(engine::rules::PriorityName(config.keep_priority)),
                        " and the state need every syscall captured");
  }
  return absl::StrCat("load shedding keeps 1 in ", config.sampling_ratio, " calls of ",
                      SyscallNameList(plan.sampled, kNamedSyscalls), " when a ring is ",
                      std::lround(config.start_fill * 100), "% full");
}

SheddingSwitch::Change SheddingSwitch::Observe(const LoadSample& sample) {
  if (!on_) {
    if (sample.fill < config_.start_fill) return Change::kNone;
    on_ = true;
    since_ns_ = sample.now_ns;
    return Change::kStart;
  }
  const double held_s = static_cast<double>(sample.now_ns - since_ns_) / 1e9;
  if (sample.fill > config_.stop_fill || held_s < config_.min_seconds) return Change::kNone;
  if (sample.capacity > 0 && sample.input_rate > kHeadroom * sample.capacity) {
    return Change::kNone;
  }
  on_ = false;
  return Change::kStop;
}

absl::Status LoadShedder::Apply(SheddingPlan plan) {
  const bool first = plan_.classes.empty();
  for (size_t id = 0; id < plan.classes.size(); ++id) {
    if (!first && id < plan_.classes.size() && plan_.classes[id] == plan.classes[id]) continue;
    if (int rc = pman_set_syscall_drop_class(handle_, static_cast<uint32_t>(id), plan.classes[id]);
        rc != 0) {
      return absl::ErrnoToStatus(-rc, "load shedding: setting the probe's drop classes");
    }
  }
  plan_ = std::move(plan);
  return absl::OkStatus();
}

absl::Status LoadShedder::SetDroppingMode(bool on) {
  kestrel_capture_settings settings{};
  if (int rc = pman_get_capture_settings(handle_, &settings); rc != 0) {
    return absl::ErrnoToStatus(-rc, "load shedding: reading the probe's settings");
  }
  settings.dropping_mode = on ? 1 : 0;
  settings.sampling_ratio = config_.sampling_ratio;
  if (int rc = pman_update_capture_settings(handle_, &settings); rc != 0) {
    return absl::ErrnoToStatus(
        -rc, absl::StrCat("load shedding: turning dropping mode ", on ? "on" : "off"));
  }
  return absl::OkStatus();
}

void LoadShedder::MeasureRates(uint64_t now_ns, uint64_t consumed, double fill) {
  if (mark_ && now_ns - mark_->at_ns < kRateIntervalNs) return;
  pman_stats stats{};
  if (pman_get_stats(handle_, &stats, nullptr, 0) != 0) return;
  const kestrel_cpu_counters& t = stats.total;
  const RateMark now{now_ns, t.records_written + kestrel_counters_dropped(&t), consumed, fill};
  if (mark_) {
    const double seconds = static_cast<double>(now_ns - mark_->at_ns) / 1e9;
    sample_.input_rate = static_cast<double>(now.input - mark_->input) / seconds;
    // Behind from start to end: what it took is what it can take.
    if (mark_->fill > config_.stop_fill && fill > config_.stop_fill) {
      const double taken = static_cast<double>(now.consumed - mark_->consumed) / seconds;
      sample_.capacity = sample_.capacity == 0 ? taken : (sample_.capacity + taken) / 2;
    }
  }
  mark_ = now;
}

absl::StatusOr<std::optional<engine::alerts::Alert>> LoadShedder::Check(uint64_t now_ns,
                                                                        uint64_t wall_ns,
                                                                        uint64_t consumed) {
  if (failed_ || !config_.enabled || plan_.sampled.empty()) return std::nullopt;
  uint64_t unread = 0;
  uint64_t ring_bytes = 0;
  if (pman_get_ring_backlog(handle_, &unread, &ring_bytes) != 0 || ring_bytes == 0) {
    return std::nullopt;
  }
  const double fill = static_cast<double>(unread) / static_cast<double>(ring_bytes);
  MeasureRates(now_ns, consumed, fill);
  sample_.fill = fill;
  sample_.now_ns = now_ns;
  const uint64_t since_ns = switch_.on_since_ns();
  const SheddingSwitch::Change change = switch_.Observe(sample_);
  if (change == SheddingSwitch::Change::kNone) return std::nullopt;
  const bool start = change == SheddingSwitch::Change::kStart;
  if (absl::Status s = SetDroppingMode(start); !s.ok()) {
    failed_ = true;
    return s;
  }
  pman_stats stats{};
  const uint64_t sampled = pman_get_stats(handle_, &stats, nullptr, 0) == 0
                               ? stats.total.drops_sampling
                               : sampled_at_start_;
  const int fill_pct = static_cast<int>(std::lround(fill * 100));
  if (start) {
    ++counters_.starts;
    sampled_at_start_ = sampled;
    return StartAlert(fill_pct, wall_ns);
  }
  ++counters_.stops;
  return StopAlert(fill_pct, (now_ns - since_ns) / 1'000'000, sampled - sampled_at_start_, wall_ns);
}

engine::alerts::Alert LoadShedder::BaseAlert(int fill_pct, uint64_t wall_ns) const {
  engine::alerts::Alert alert;
  alert.time_ns = wall_ns;
  alert.rule = kLoadSheddingRule;
  alert.source = "internal";
  alert.hostname = engine::alerts::LocalHostname();
  alert.output_fields = {
      {"ring.fill_pct", std::to_string(fill_pct), engine::alerts::FieldJsonKind::kNumber},
      {"shed.sampling_ratio", std::to_string(config_.sampling_ratio),
       engine::alerts::FieldJsonKind::kNumber},
      {"shed.syscalls", std::to_string(plan_.sampled.size()),
       engine::alerts::FieldJsonKind::kNumber},
  };
  return alert;
}

engine::alerts::Alert LoadShedder::StartAlert(int fill_pct, uint64_t wall_ns) const {
  engine::alerts::Alert alert = BaseAlert(fill_pct, wall_ns);
  alert.priority = engine::rules::Priority::kWarning;
  alert.output =
      absl::StrCat("Load shedding started: a ring is ", fill_pct, "% full; keeping 1 in ",
                   config_.sampling_ratio, " calls of the syscalls no rule at or above ",
                   std::string(engine::rules::PriorityName(config_.keep_priority)), " needs (",
                   SyscallNameList(plan_.sampled, kNamedSyscalls), ")");
  return alert;
}

engine::alerts::Alert LoadShedder::StopAlert(int fill_pct, uint64_t duration_ms, uint64_t left_out,
                                             uint64_t wall_ns) const {
  engine::alerts::Alert alert = BaseAlert(fill_pct, wall_ns);
  alert.priority = engine::rules::Priority::kNotice;
  alert.output_fields.push_back(
      {"shed.duration_ms", std::to_string(duration_ms), engine::alerts::FieldJsonKind::kNumber});
  alert.output_fields.push_back(
      {"shed.dropped", std::to_string(left_out), engine::alerts::FieldJsonKind::kNumber});
  alert.output =
      absl::StrCat("Load shedding stopped after ", duration_ms, " ms: every ring is at most ",
                   fill_pct, "% full and the input (", absl::StrFormat("%.0f", sample_.input_rate),
                   " records/s) fits the reader; ", left_out, " calls were left out");
  return alert;
}

}  // namespace kestrel::agent
