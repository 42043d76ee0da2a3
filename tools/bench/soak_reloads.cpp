#include "bench/soak_reloads.h"

#include <signal.h>
#include <stdio.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bench/kestrel_run_child.h"

namespace kestrel::bench {
namespace {

// Appended to the good rules: a condition cut short, as an editor's
// half-saved change would leave it. The whole file must then be refused.
constexpr char kBrokenRule[] =
    "\n- rule: Soak broken rule\n"
    "  desc: the soak broke this file on purpose; a reload of it must fail\n"
    "  condition: evt.type in (openat\n"
    "  output: never\n"
    "  priority: WARNING\n";

// A soak long enough for the SIGHUP grid: the window between two of them.
constexpr double kGridMinS = 4 * SoakReloads::kPeriodS;

}  // namespace

SoakReloads::SoakReloads(pid_t run, std::string rules_file, std::string good, double duration_s)
    : run_(run), rules_file_(std::move(rules_file)), good_(std::move(good)) {
  if (duration_s >= kGridMinS) {
    // Mid-run, half a period after a SIGHUP: the reload that SIGHUP asked
    // for is long done, and the next SIGHUP falls inside the window.
    period_s_ = kPeriodS;
    break_at_s_ = kPeriodS * std::floor(duration_s / (2 * kPeriodS)) + kPeriodS / 2;
  } else {
    // Too short for the grid: the middle third, one SIGHUP in its middle.
    period_s_ = duration_s / 2;
    break_at_s_ = duration_s / 3;
  }
  restore_at_s_ = break_at_s_ + (duration_s >= kGridMinS ? kPeriodS : duration_s / 3);
  next_sighup_s_ = period_s_;
}

absl::Status SoakReloads::Write(const std::string& text) {
  // Renamed over the file, as an editor saves: the run's watcher sees the
  // new file whole, never half of it.
  const std::string tmp = rules_file_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out.flush()) return absl::InternalError(absl::StrCat("cannot write ", tmp));
  }
  if (rename(tmp.c_str(), rules_file_.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("cannot rename ", tmp, " over ", rules_file_));
  }
  return absl::OkStatus();
}

absl::Status SoakReloads::Tick(double t_s) {
  if (phase_ == Phase::kGood && t_s >= break_at_s_) {
    if (absl::Status s = Write(good_ + kBrokenRule); !s.ok()) return s;
    phase_ = Phase::kBroken;
    tally_.broken_from_s = t_s;
    alerts_at_break_ = alerts_;
  }
  if (phase_ == Phase::kBroken && t_s >= restore_at_s_) {
    if (absl::Status s = Write(good_); !s.ok()) return s;
    phase_ = Phase::kRestored;
    tally_.broken_to_s = t_s;
    tally_.alerts_while_broken = alerts_ - alerts_at_break_;
  }
  if (t_s >= next_sighup_s_) {
    kill(run_, SIGHUP);
    ++tally_.sighups;
    next_sighup_s_ += period_s_;
  }
  return absl::OkStatus();
}

void SoakReloads::See(const std::string& line) {
  if (line.find("rules reloaded") != std::string::npos) {
    if (phase_ == Phase::kBroken) {
      ++tally_.unexpected;
      return;
    }
    ++tally_.reloaded;
    if (phase_ == Phase::kRestored) phase_ = Phase::kGoodAgain;
  } else if (line.find("reload failed") != std::string::npos) {
    // Until a reload of the good file is done, a failure may still be the
    // answer to a reload asked for while the file was broken.
    if (phase_ == Phase::kBroken || phase_ == Phase::kRestored) {
      ++tally_.refused;
    } else {
      ++tally_.unexpected;
    }
  } else if (line.starts_with("kestrel run: events ")) {
    if (std::optional<uint64_t> alerts = NumberAfter(line, ", alerts ")) alerts_ = *alerts;
  }
}

}  // namespace kestrel::bench
