// What `capture` selects in the probe and what it then prints.
#include "capture_state.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include <algorithm>

#include "engine/state/state_syscalls.h"

namespace kestrel::cli {
namespace {

CaptureOptions OpenatOnly() {
  CaptureOptions o;
  o.all_syscalls = false;
  o.syscalls = {SYS_openat, SYS_prctl};
  return o;
}

TEST(CaptureStateTest, ProbeCapturesTheUsersAndTheStateSyscalls) {
  const std::vector<uint32_t> ids = ShownAndStateSyscalls(OpenatOnly());
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), SYS_openat));
  for (uint32_t id : engine::StateSyscalls()) {
    EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), id)) << id;
  }
}

TEST(CaptureStateTest, ShowsAllButTheStateSyscallsNotAskedFor) {
  const engine::ShownSyscalls shown = ShownSyscallsOf(OpenatOnly());
  EXPECT_TRUE(shown.Shows(SYS_openat));
  EXPECT_TRUE(shown.Shows(SYS_prctl));  // asked for
  EXPECT_FALSE(shown.Shows(SYS_execve));
  EXPECT_FALSE(shown.Shows(SYS_clone));
  EXPECT_FALSE(shown.Shows(SYS_exit_group));
  EXPECT_TRUE(shown.Shows(SYS_read));  // e.g. enabled later on a pinned capture
  CaptureOptions all;
  EXPECT_TRUE(ShownSyscallsOf(all).Shows(SYS_execve));
}

}  // namespace
}  // namespace kestrel::cli
