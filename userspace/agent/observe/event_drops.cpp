#include "agent/observe/event_drops.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/rules/priority.h"

namespace kestrel::agent::observe {

bool TokenBucket::Claim(uint64_t now_ns) {
  if (last_ns_ != 0 && now_ns > last_ns_) {
    tokens_ = std::min(max_, tokens_ + rate_ * static_cast<double>(now_ns - last_ns_) / 1e9);
  }
  last_ns_ = now_ns;
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

DropWatch::DropWatch(DropConfig config, DropTotals start)
    : config_(std::move(config)), bucket_(config_.rate, config_.max_burst), last_(start) {}

std::optional<DropTotals> DropWatch::Check(const DropTotals& now, uint64_t now_ns) {
  DropTotals delta;
  delta.events = now.events - last_.events;
  delta.drops = now.drops - last_.drops;
  delta.drops_ring_full = now.drops_ring_full - last_.drops_ring_full;
  delta.drops_too_large = now.drops_too_large - last_.drops_too_large;
  delta.drops_no_ring = now.drops_no_ring - last_.drops_no_ring;
  delta.drops_settings_busy = now.drops_settings_busy - last_.drops_settings_busy;
  delta.drops_sampling = now.drops_sampling - last_.drops_sampling;
  last_ = now;
  if (config_.simulate_drops) ++delta.drops;
  if (delta.drops == 0) return std::nullopt;
  // As Falco: no records at all with a drop is a share over any threshold.
  const double share = delta.events == 0
                           ? 1.0
                           : static_cast<double>(delta.drops) / static_cast<double>(delta.events);
  if (!config_.simulate_drops && share <= config_.threshold) return std::nullopt;
  ++detected_;
  if (!bucket_.Claim(now_ns)) return std::nullopt;
  ++acted_;
  return delta;
}

std::string DropMessage(const DropTotals& delta) {
  return absl::StrCat(kDropRule, ". ", delta.drops, " system calls dropped in last second.");
}

engine::alerts::Alert DropAlert(uint64_t wall_ns, const DropTotals& delta) {
  engine::alerts::Alert alert;
  alert.time_ns = wall_ns;
  alert.rule = kDropRule;
  alert.priority = engine::rules::Priority::kDebug;
  alert.source = "internal";
  alert.hostname = engine::alerts::LocalHostname();
  alert.output = DropMessage(delta);
  const std::pair<const char*, uint64_t> counts[] = {
      {"n_evts", delta.events},
      {"n_drops", delta.drops},
      {"n_drops_buffer_total", delta.drops_ring_full},
      {"n_drops_too_large", delta.drops_too_large},
      {"n_drops_no_ring", delta.drops_no_ring},
      {"n_drops_settings_busy", delta.drops_settings_busy},
      {"n_drops_sampling", delta.drops_sampling}};
  for (const auto& [name, n] : counts) {
    alert.output_fields.push_back({name, absl::StrCat(n), engine::alerts::FieldJsonKind::kNumber});
  }
  return alert;
}

bool IdleWatch::Read(bool found) {
  if (found) {
    empty_ = 0;
    return false;
  }
  if (max_ == 0) return false;
  return ++empty_ == max_;
}

}  // namespace kestrel::agent::observe
