// A channel's error carries its cause to the counters: the cause and errno
// survive the trip through absl::Status, and an error built without one
// still gets a cause from its code.
#include "agent/outputs/delivery_failure.h"

#include <errno.h>
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace kestrel::agent::outputs {
using engine::alerts::Alert;
namespace {

TEST(DeliveryFailureTest, TheCauseAndErrnoSurviveTheStatus) {
  const absl::Status s =
      DeliveryError(FailureCause::kWriteError, "write: No space left on device", ENOSPC);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "write: No space left on device");
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);  // as ErrnoToStatus says
  const FailureKey key = FailureOf(s);
  EXPECT_EQ(key.cause, FailureCause::kWriteError);
  EXPECT_EQ(key.err, ENOSPC);
  EXPECT_EQ(FailureKeyName(key), "write error: No space left on device");
}

TEST(DeliveryFailureTest, ACauseWithoutErrnoIsNamedAlone) {
  const absl::Status s = DeliveryError(FailureCause::kProgramNotFound, "exited with 127");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(FailureOf(s), (FailureKey{FailureCause::kProgramNotFound, 0}));
  EXPECT_EQ(FailureKeyName(FailureOf(s)), "program not found");
}

TEST(DeliveryFailureTest, AnErrorWithoutACauseGetsOneFromItsCode) {
  EXPECT_EQ(FailureOf(absl::DeadlineExceededError("slow")).cause, FailureCause::kTimeout);
  EXPECT_EQ(FailureOf(absl::CancelledError("closed")).cause, FailureCause::kCutAtStop);
  EXPECT_EQ(FailureOf(absl::InternalError("?")).cause, FailureCause::kOther);
  EXPECT_EQ(FailureKeyName(FailureOf(absl::InternalError("?"))), "other error");
}

TEST(DeliveryFailureTest, EveryCauseHasItsOwnName) {
  std::vector<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(FailureCause::kOther); ++c) {
    const std::string_view name = FailureCauseName(static_cast<FailureCause>(c));
    EXPECT_FALSE(name.empty());
    for (std::string_view seen : names) EXPECT_NE(name, seen);
    names.push_back(name);
  }
  EXPECT_EQ(DropCauseName(DropCause::kQueueFull), "queue full");
  EXPECT_EQ(DropCauseName(DropCause::kClosed), "closed at shutdown");
}

}  // namespace
}  // namespace kestrel::agent::outputs
