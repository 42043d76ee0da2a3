// Figures the `kestrel run` end-to-end tests read from its final stderr
// (the run's stats line and the probe's stats block), and the waits and
// placements the load tests share.
#ifndef KESTREL_TEST_E2E_RUN_STATS_FIGURES_H_
#define KESTREL_TEST_E2E_RUN_STATS_FIGURES_H_

#include <gtest/gtest.h>
#include <sched.h>

#include <chrono>
#include <cstdint>
#include <regex>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {

// The number `pattern`'s first group captures in `text`; a failure and 0
// when there is none.
inline uint64_t StatsFigure(const std::string& text, const std::string& pattern) {
  std::smatch m;
  uint64_t n = 0;
  if (!std::regex_search(text, m, std::regex(pattern))) {
    ADD_FAILURE() << "no \"" << pattern << "\" in " << text;
    return 0;
  }
  EXPECT_TRUE(absl::SimpleAtoi(m[1].str(), &n));
  return n;
}

// The probe's record accounting in a finished run's stderr.
struct RecordAccounting {
  uint64_t attempted = 0, consumed = 0, unread = 0, dropped = 0;
};

// Reads it, and checks that every record attempted was read, left unread
// or dropped.
inline RecordAccounting ExpectEveryRecordAccountedFor(const std::string& err) {
  RecordAccounting a;
  a.attempted = StatsFigure(err, R"(records attempted (\d+):)");
  a.consumed = StatsFigure(err, R"(: consumed (\d+) )");
  a.unread = StatsFigure(err, R"(left unread (\d+),)");
  a.dropped = StatsFigure(err, R"(, left unread \d+, dropped (\d+) \()");
  EXPECT_EQ(a.attempted, a.consumed + a.unread + a.dropped) << err;
  return a;
}

// Runs `/bin/true MARK-ready-N` until `run` prints its alert (rules that
// print the command line, then a space): from then on the probe is
// attached and the rules are evaluated.
inline bool WaitUntilExecAlerts(KestrelProcess& run, const std::string& mark) {
  for (int i = 0; i < 100; ++i) {
    ExecTrue(absl::StrCat(mark, "-ready-", i));
    if (run.WaitForLine(absl::StrCat(mark, "-ready-", i, " "), std::chrono::milliseconds(300))) {
      return true;
    }
  }
  return false;
}

inline void PinTo(pid_t pid, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(pid, sizeof set, &set);
}

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_RUN_STATS_FIGURES_H_
