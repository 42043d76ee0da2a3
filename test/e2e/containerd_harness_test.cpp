// The CRI harness itself, before tests of Kestrel rely on it: a private
// containerd runs a pod's containers where kubelet's cgroupfs driver would
// put them (/kubepods/besteffort/pod<uid>/<64 hex>, in every hierarchy of
// this hybrid host), with their exit codes, output and host mounts, and
// leaves no process, mount, folder, cgroup or podman image behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "containerd.h"
#include "podman.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;

std::string FileText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << part << "\" is not in:\n" << text;
}

// Whether any process's command line mentions `text`.
bool AnyProcessMentions(const std::string& text) {
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (FileText(entry.path() / "cmdline").find(text) != std::string::npos) return true;
  }
  return false;
}

class ContainerdHarnessTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    missing_ = Containerd::Missing();
    if (missing_.empty()) image_ = BuildBusyboxImage();
  }
  static void TearDownTestSuite() {
    if (image_) RemoveBusyboxImage();
  }
  static inline std::string missing_;
  static inline bool image_ = false;
};

TEST_F(ContainerdHarnessTest, RunsPodContainersInKubepodsCgroupsAndLeavesNothing) {
  if (!missing_.empty()) GTEST_SKIP() << missing_;
  ASSERT_TRUE(image_);
  const bool run_containerd_before = fs::exists("/run/containerd");
  const std::string uid = absl::StrCat("4e2e0000-0000-4000-8000-", 100000000000 + getpid());
  const std::string pod_cgroup = CriCgroupParent(uid);
  std::string dir;
  {
    Containerd containerd;
    ASSERT_TRUE(containerd.ok()) << containerd.error();
    dir = containerd.dir();
    CriClient& cri = containerd.cri();

    CriPodSpec pod_spec;
    pod_spec.name = "harness";
    pod_spec.kube_namespace = "kestrel-e2e";
    pod_spec.uid = uid;
    pod_spec.labels = {{"app", "kestrel-e2e"}};
    pod_spec.privileged = true;
    const std::string pod = cri.RunPod(pod_spec);
    ASSERT_FALSE(pod.empty()) << cri.error();

    CriContainerSpec once;
    once.name = "once";
    once.image = BusyboxImage();
    once.command = {"sh", "-c", "cat /proc/self/cgroup; echo hi"};
    once.labels = {{"role", "once"}};
    const CriRun run = cri.Run(pod, once);
    ASSERT_EQ(run.id.size(), 64u) << cri.error();
    EXPECT_EQ(run.exit_code, 0) << run.out;
    const std::string cgroup = absl::StrCat(pod_cgroup, "/", run.id);
    EXPECT_TRUE(Contains(run.out, absl::StrCat(":cpu:", cgroup, "\n")));
    EXPECT_TRUE(Contains(run.out, absl::StrCat(":memory:", cgroup, "\n")));
    EXPECT_TRUE(Contains(run.out, absl::StrCat("0::", cgroup, "\n")));
    EXPECT_TRUE(Contains(run.out, "\nhi\n"));

    // A privileged one left running, with a host folder: its process seen
    // from the host.
    const std::string shared = dir + "/shared";
    fs::create_directories(shared);
    std::ofstream(shared + "/marker") << "from the host";
    CriContainerSpec sleeper;
    sleeper.name = "sleeper";
    sleeper.image = BusyboxImage();
    sleeper.command = {"sleep", "1000"};
    sleeper.privileged = true;
    sleeper.mounts = {{shared, "/shared", true}};
    const std::string id = cri.StartContainer(pod, sleeper);
    ASSERT_EQ(id.size(), 64u) << cri.error();
    const CriContainerStatus status = cri.Status(id);
    ASSERT_EQ(status.state, CriContainerStatus::State::kRunning) << status.reason;
    ASSERT_GT(status.pid, 0);
    const std::string proc_cgroup = FileText(absl::StrCat("/proc/", status.pid, "/cgroup"));
    EXPECT_TRUE(Contains(proc_cgroup, absl::StrCat(":pids:", pod_cgroup, "/", id, "\n")));
    EXPECT_TRUE(Contains(proc_cgroup, absl::StrCat("0::", pod_cgroup, "/", id, "\n")));
    EXPECT_EQ(FileText(absl::StrCat("/proc/", status.pid, "/root/shared/marker")), "from the host");
    EXPECT_TRUE(cri.StopContainer(id)) << cri.error();
    CriContainerStatus stopped;
    EXPECT_TRUE(cri.WaitExited(id, std::chrono::seconds(10), &stopped));
    EXPECT_EQ(stopped.exit_code, 128 + SIGKILL);
    EXPECT_TRUE(cri.RemoveContainer(id)) << cri.error();
    EXPECT_EQ(cri.Status(id).state, CriContainerStatus::State::kMissing);
    // The pod, with the exited container still in it, goes with the harness.
  }
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_FALSE(AnyProcessMentions(dir)) << "a containerd or shim of " << dir << " still runs";
  EXPECT_FALSE(Contains(FileText("/proc/self/mountinfo"), dir));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/cpu" + pod_cgroup));
  EXPECT_FALSE(fs::exists("/sys/fs/cgroup/unified" + pod_cgroup));
  EXPECT_EQ(fs::exists("/run/containerd"), run_containerd_before);
  EXPECT_NE(RunArgv({"podman", "image", "exists",
                     absl::StrCat("localhost/kestrel-e2e-pause-", getpid(), ":latest")}),
            0);
}

}  // namespace
}  // namespace kestrel::e2e
