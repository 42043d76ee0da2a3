// What `capture` selects in the probe and what it then prints.
#include "kestrel/capture/capture_state.h"

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

CaptureOptions OpenatToFile() {
  CaptureOptions o = OpenatOnly();
  o.write_path = "/tmp/unused.kcap";
  return o;
}

// A capture file feeds `kestrel run --replay`: every state syscall.
TEST(CaptureStateTest, FileCaptureCapturesTheUsersAndTheStateSyscalls) {
  const std::vector<uint32_t> ids = ShownAndStateSyscalls(OpenatToFile());
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), SYS_openat));
  for (uint32_t id : engine::StateSyscalls()) {
    EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), id)) << id;
  }
}

// A live print shows thread names only: the syscalls that create, rename
// and end threads, and none of the descriptor or credential ones.
TEST(CaptureStateTest, LiveCaptureCapturesTheUsersAndTheProcessIdentitySyscalls) {
  const std::vector<uint32_t> ids = ShownAndStateSyscalls(OpenatOnly());
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), SYS_openat));
  for (uint32_t id : {SYS_clone, SYS_clone3, SYS_fork, SYS_vfork, SYS_execve, SYS_execveat,
                      SYS_prctl, SYS_exit, SYS_exit_group}) {
    EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), static_cast<uint32_t>(id))) << id;
  }
  for (uint32_t id : {SYS_close, SYS_dup2, SYS_socket, SYS_connect, SYS_setuid, SYS_chdir}) {
    EXPECT_FALSE(std::binary_search(ids.begin(), ids.end(), id)) << id;
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

TEST(CaptureStateTest, FileCaptureHidesEveryStateSyscallNotAskedFor) {
  const engine::ShownSyscalls shown = ShownSyscallsOf(OpenatToFile());
  EXPECT_TRUE(shown.Shows(SYS_openat));
  EXPECT_TRUE(shown.Shows(SYS_prctl));
  EXPECT_FALSE(shown.Shows(SYS_execve));
  EXPECT_FALSE(shown.Shows(SYS_close));
  EXPECT_FALSE(shown.Shows(SYS_setuid));
  EXPECT_TRUE(shown.Shows(SYS_read));
}

}  // namespace
}  // namespace kestrel::cli
