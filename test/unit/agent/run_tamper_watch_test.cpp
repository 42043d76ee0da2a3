// How a change to the probe made by someone else is named. The watch on a
// live probe is tested end to end (test/e2e/run_tamper_test.cpp).
#include "agent/control/tamper_watch.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "libpman.h"

namespace kestrel::agent {
namespace {

ProbeTuning Tuning() {
  ProbeTuning t;
  t.interesting.assign(pman_syscall_table_size(), 0);
  t.drop_classes.assign(pman_syscall_table_size(), KESTREL_DROP_NEVER);
  t.interesting[SYS_openat] = 1;
  t.interesting[SYS_close] = 1;
  return t;
}

TEST(TamperWatchTest, NothingChangedSaysNothing) {
  EXPECT_TRUE(DescribeTuningChanges(Tuning(), Tuning()).empty());
}

TEST(TamperWatchTest, EachKindOfChangeIsNamed) {
  const ProbeTuning was = Tuning();
  ProbeTuning now = Tuning();
  now.settings.snaplen = 4096;
  now.settings.dropping_mode = 1;
  now.interesting[SYS_openat] = 0;
  now.interesting[SYS_close] = 0;
  now.interesting[SYS_read] = 1;
  now.drop_classes[SYS_getppid] = KESTREL_DROP_ALWAYS;
  now.drop_classes[SYS_getpid] = KESTREL_DROP_ALWAYS;
  now.drop_classes[SYS_read] = KESTREL_DROP_SAMPLED;
  now.omitted_params = KESTREL_OMIT_OPEN_PATH;
  EXPECT_EQ(
      DescribeTuningChanges(was, now),
      (std::vector<std::string>{
          "snaplen 0 -> 4096", "dropping_mode 0 -> 1", "syscalls off: close, openat",
          "syscalls on: read", "drop class never -> sampled: read",
          "drop class never -> always: getpid, getppid", "omitted parameters none -> open path"}));
  EXPECT_EQ(OmittedParamsText(KESTREL_OMIT_OPEN_PATH | 0x10u), "open path,0x10");
}

TEST(TamperWatchTest, SettingsOutsideTheKeysAndLongListsStayOneReadableLine) {
  const ProbeTuning was = Tuning();
  ProbeTuning now = Tuning();
  now.settings.target_lists_set = 1;  // derived: not a key
  for (uint32_t id = 0; id < 20; ++id) now.drop_classes[id] = KESTREL_DROP_ALWAYS;
  const std::vector<std::string> changes = DescribeTuningChanges(was, now);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0], "settings outside the keys (derived fields, padding)");
  EXPECT_TRUE(changes[1].starts_with("drop class never -> always: read, write, open, close, "))
      << changes[1];
  EXPECT_TRUE(changes[1].ends_with(", and 4 more")) << changes[1];
}

}  // namespace
}  // namespace kestrel::agent
