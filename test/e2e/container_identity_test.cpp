// Issue 36: which container a process is in, from the kernel, whatever the
// cgroup layout. This machine is hybrid (v1 controllers beside v2), the
// layout where a runtime may place a container in v1 controllers only: a
// process moved into the cpu controller's /docker/<id>, before Kestrel
// started or while it runs, and a real podman container, each alert with
// their container's id; the test process itself is on the host.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "podman.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// A container's cgroup as Docker's cgroupfs driver makes it, in the v1 cpu
// controller only; removed with the processes in it moved back out.
class V1ContainerCgroup {
 public:
  explicit V1ContainerCgroup(char digit) : id_(64, digit) {
    mkdir(kParent, 0755);
    dir_ = absl::StrCat(kParent, "/", id_);
    mkdir(dir_.c_str(), 0755);
  }
  ~V1ContainerCgroup() {
    std::ifstream procs(dir_ + "/cgroup.procs");
    for (std::string pid; std::getline(procs, pid);) {
      std::ofstream("/sys/fs/cgroup/cpu/cgroup.procs") << pid;
    }
    rmdir(dir_.c_str());
    rmdir(kParent);
  }
  void Add(pid_t pid) const { std::ofstream(dir_ + "/cgroup.procs") << pid; }
  std::string short_id() const { return id_.substr(0, 12); }

 private:
  static constexpr char kParent[] = "/sys/fs/cgroup/cpu/docker";
  std::string id_;
  std::string dir_;
};

// A child that waits until released, then opens `path` and exits.
class WaitingOpener {
 public:
  explicit WaitingOpener(const std::string& path) {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[1]);
      char c;
      (void)!read(fds[0], &c, 1);
      close(open(path.c_str(), O_RDONLY | O_CREAT, 0600));
      _exit(0);
    }
    close(fds[0]);
    release_ = fds[1];
  }
  ~WaitingOpener() {
    Release();
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }
  void Release() {
    if (release_ < 0) return;
    (void)!write(release_, "x", 1);
    close(release_);
    release_ = -1;
  }

 private:
  pid_t pid_ = -1;
  int release_ = -1;
};

std::string ContainerRule(const std::string& dir) {
  return absl::StrCat(
      "- rule: Open marker\n  desc: d\n  condition: evt.type = openat and fd.name startswith \"",
      dir,
      "/mark\"\n  output: opened %fd.name in container.id=%container.id\n  priority: WARNING\n"
      "- rule: Container exec\n  desc: d\n  condition: evt.type = execve and proc.cmdline "
      "contains kestrel-e2e-mark\n  output: ran %proc.cmdline in container.id=%container.id "
      "type=%container.type\n  priority: WARNING\n");
}

class ContainerIdentityTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { image_ = BuildBusyboxImage(); }
  static void TearDownTestSuite() { RemoveBusyboxImage(); }
  void SetUp() override { ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root"; }

  static inline bool image_ = false;
  RunTempDir dir_;
};

TEST_F(ContainerIdentityTest, AV1OnlyContainerCgroupNamesTheContainer) {
  const V1ContainerCgroup cgroup('c');
  const std::string before = dir_.File("mark-before");
  const std::string during = dir_.File("mark-during");
  // Moved in before Kestrel starts: only the start snapshot knows.
  WaitingOpener early(before);
  cgroup.Add(early.pid());
  WriteWhole(dir_.File("rules.yaml"), ContainerRule(dir_.path()));
  KestrelProcess run({"run", "-r", dir_.File("rules.yaml"), "--no-pin"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  early.Release();
  const std::optional<std::string> early_alert = run.WaitForLine(before, kAlertTimeout);
  // Forked under the probe's eyes, moved in, then acting.
  WaitingOpener late(during);
  cgroup.Add(late.pid());
  late.Release();
  const std::optional<std::string> late_alert = run.WaitForLine(during, kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(early_alert && late_alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(*early_alert, "container.id=" + cgroup.short_id())) << *early_alert;
  // The child was forked on the host and moved after: Falco, too, reads a
  // process's cgroups at clone and execve.
  EXPECT_TRUE(absl::StrContains(*late_alert, "container.id=host")) << *late_alert;
  // The test's own markers were opened on the host.
  EXPECT_TRUE(absl::StrContains(run.lines().front(), "container.id=host")) << run.lines().front();
}

TEST_F(ContainerIdentityTest, AnExecAfterAMoveIntoAV1CgroupNamesTheContainer) {
  const V1ContainerCgroup cgroup('d');
  WriteWhole(dir_.File("rules.yaml"), ContainerRule(dir_.path()));
  KestrelProcess run({"run", "-r", dir_.File("rules.yaml"), "--no-pin"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  if (child == 0) {
    close(fds[1]);
    char c;
    (void)!read(fds[0], &c, 1);
    execl("/bin/true", "true", "kestrel-e2e-mark-v1", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[0]);
  cgroup.Add(child);
  (void)!write(fds[1], "x", 1);
  close(fds[1]);
  waitpid(child, nullptr, 0);
  const std::optional<std::string> alert = run.WaitForLine("kestrel-e2e-mark-v1", kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  ASSERT_TRUE(alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(*alert, "container.id=" + cgroup.short_id() + " type=docker"))
      << *alert;
}

TEST_F(ContainerIdentityTest, ARealPodmanContainerIsNamedByItsId) {
  ASSERT_TRUE(image_) << "the busybox image could not be built";
  WriteWhole(dir_.File("rules.yaml"), ContainerRule(dir_.path()));
  KestrelProcess run({"run", "-r", dir_.File("rules.yaml"), "--no-pin"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  const ContainerRun container =
      RunContainer({"--network", "none"}, {"/bin/sh", "-c", ": kestrel-e2e-mark-podman"});
  ASSERT_EQ(container.exit_code, 0);
  ASSERT_EQ(container.id.size(), 64u) << container.id;
  // podman's own command line, on the host, names the mark too.
  const std::optional<std::string> alert =
      run.WaitForLine("ran sh -c : kestrel-e2e-mark-podman in", kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  ASSERT_TRUE(alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(
      *alert, absl::StrCat("container.id=", container.id.substr(0, 12), " type=podman")))
      << *alert;
}

}  // namespace
}  // namespace kestrel::e2e
