// A fixture for conditions compiled against the fields layer's resolver
// and evaluated on one synthetic event (synthetic_system.h).
#ifndef KESTREL_TEST_UNIT_FIELDS_CONDITION_TEST_H_
#define KESTREL_TEST_UNIT_FIELDS_CONDITION_TEST_H_

#include <fcntl.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "engine/filter/filter_program.h"
#include "engine/filter/parser.h"
#include "synthetic_system.h"

namespace kestrel::testing {

class ConditionTest : public ::testing::Test {
 protected:
  bool Eval(std::string_view condition) {
    engine::filter::FilterProgram program;
    absl::StatusOr<engine::filter::ExprPtr> e = engine::filter::ParseCondition(condition);
    EXPECT_TRUE(e.ok()) << e.status();
    if (!e.ok()) return false;
    absl::StatusOr<engine::filter::FilterProgram::ConditionId> id =
        program.Add(**e, sys_.registry());
    EXPECT_TRUE(id.ok()) << condition << ": " << id.status();
    if (!id.ok()) return false;
    program.BeginEvent(sys_.extractor());
    return program.Matches(*id);
  }

  std::string CompileError(std::string_view condition) {
    engine::filter::FilterProgram program;
    absl::StatusOr<engine::filter::ExprPtr> e = engine::filter::ParseCondition(condition);
    if (!e.ok()) return "parse error: " + std::string(e.status().message());
    absl::StatusOr<engine::filter::FilterProgram::ConditionId> id =
        program.Add(**e, sys_.registry());
    return id.ok() ? "compiled" : std::string(id.status().message());
  }

  void OpenEtcPasswd() {
    sys_.SetEvent(CatRecord(
        KESTREL_EVT_OPENAT,
        {{ReturnName(KESTREL_EVT_OPENAT), 3}, {"dirfd", AT_FDCWD}, {"flags", O_RDONLY | O_CLOEXEC}},
        {{"path", Str("/etc/passwd")}}));
  }

  SyntheticSystem sys_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_UNIT_FIELDS_CONDITION_TEST_H_
