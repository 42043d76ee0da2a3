// Each controller's cgroup read from /proc as the probe's `cgroups`
// parameter gives it, on hybrid (v1 and v2), v2-only and v1-only hosts.
#include "engine/state/controller_cgroups.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kestrel::engine::state {
namespace {

using Entries = std::vector<std::string>;

// /proc/cgroups of a kernel with the five controllers and a few more.
constexpr char kKernelControllers[] =
    "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
    "cpuset\t3\t1\t1\n"
    "cpu\t1\t1\t1\n"
    "cpuacct\t2\t1\t1\n"
    "blkio\t7\t1\t1\n"
    "memory\t4\t23\t1\n"
    "pids\t8\t1\t1\n";

TEST(ControllerCgroupsTest, HybridHostTakesEachV1Path) {
  // Each v1 controller has a hierarchy of its own; io is "blkio" there.
  const char proc[] =
      "9:name=systemd:/user.slice\n"
      "8:pids:/user.slice/user-0.slice\n"
      "7:blkio:/blk\n"
      "4:memory:/process_api/9566\n"
      "3:cpuset:/\n"
      "2:cpuacct:/acct\n"
      "1:cpu:/sched\n"
      "0::/user.slice/session-1.scope\n";
  EXPECT_EQ(
      ControllerCgroupsFromProcFiles(proc, kKernelControllers),
      (Entries{"cpuset=/", "cpu=/sched", "cpuacct=/acct", "io=/blk", "memory=/process_api/9566"}));
}

TEST(ControllerCgroupsTest, SharedV1HierarchyAndUnifiedForTheRest) {
  // cpu and cpuacct mounted together; memory and io left on v2.
  const char proc[] =
      "2:cpu,cpuacct:/ctr\n"
      "1:cpuset:/ctr\n"
      "0::/system.slice/docker-abc.scope\n";
  EXPECT_EQ(ControllerCgroupsFromProcFiles(proc, kKernelControllers),
            (Entries{"cpuset=/ctr", "cpu=/ctr", "cpuacct=/ctr", "io=/system.slice/docker-abc.scope",
                     "memory=/system.slice/docker-abc.scope"}));
}

TEST(ControllerCgroupsTest, V2OnlyGivesTheUnifiedPathToWhatTheKernelHas) {
  // A kernel without cpuset, as /proc/cgroups says: the probe skips it too.
  const char kernel[] =
      "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
      "cpu\t0\t5\t1\n"
      "cpuacct\t0\t5\t1\n"
      "io\t0\t5\t1\n"
      "blkio\t0\t5\t1\n"
      "memory\t0\t5\t1\n";
  EXPECT_EQ(
      ControllerCgroupsFromProcFiles("0::/init.scope\n", kernel),
      (Entries{"cpu=/init.scope", "cpuacct=/init.scope", "io=/init.scope", "memory=/init.scope"}));
}

TEST(ControllerCgroupsTest, NothingToSay) {
  EXPECT_TRUE(ControllerCgroupsFromProcFiles("", kKernelControllers).empty());
  // v1 only, none of the five mounted: the probe would find no v2 path.
  EXPECT_TRUE(ControllerCgroupsFromProcFiles("5:pids:/x\n", kKernelControllers).empty());
  // A path holding colons is kept whole.
  EXPECT_EQ(ControllerCgroupsFromProcFiles("4:memory:/a:b\n", "#h\nmemory\t4\t1\t1\n"),
            (Entries{"memory=/a:b"}));
}

}  // namespace
}  // namespace kestrel::engine::state
