// Issue 36: container metadata from a real runtime. Podman's Docker-
// compatible API serves it here (`podman system service` on a socket of
// the test's own); `kestrel run` is pointed at that socket, a real
// container runs with a name, a label, a bind mount and --privileged, and
// the alert for a process in it carries them. Rules reading those fields
// are not named as dead when a runtime answers. The container's first
// process is judged by them too, though it runs before Podman answers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "podman.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

class ContainerMetadataTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    image_ = BuildBusyboxImage();
    service_ = new PodmanService(absl::StrCat("/tmp/kestrel-e2e-podman-", getpid(), ".sock"));
  }
  static void TearDownTestSuite() {
    delete service_;
    service_ = nullptr;
    RemoveBusyboxImage();
  }
  void SetUp() override {
    ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
    ASSERT_TRUE(image_) << "the busybox image could not be built";
    ASSERT_TRUE(service_->Answers()) << "podman system service did not start";
  }

  static inline bool image_ = false;
  static inline PodmanService* service_ = nullptr;
  RunTempDir dir_;
};

TEST_F(ContainerMetadataTest, AlertsCarryWhatTheRuntimeSays) {
  WriteWhole(dir_.File("rules.yaml"),
             absl::StrCat(OpenRule(dir_.path()),
                          "- rule: Exec in container\n  desc: d\n  condition: evt.type = execve "
                          "and container.id != host and proc.cmdline contains kestrel-e2e-meta\n"
                          "  output: meta cmd=%proc.cmdline name=%container.name "
                          "image=%container.image repo=%container.image.repository "
                          "tag=%container.image.tag privileged=%container.privileged "
                          "label=%container.label[app] dest=%container.mount.dest[/etc] "
                          "none=%container.mount.dest[/nonexistent] labels=%container.labels "
                          "pod=%k8s.pod.name ns=%k8s.ns.name uid=%k8s.pod.uid "
                          "sandbox=%k8s.pod.sandbox_id podlabel=%k8s.pod.label[tier] "
                          "podlabels=%k8s.pod.labels mount=%container.mount[0] "
                          "source=%container.mount.source[/host-*] rw=%container.mount.rdwr[/etc]"
                          "\n  priority: WARNING\n"
                          "- rule: Privileged\n  desc: d\n  condition: evt.type = execve and "
                          "container.privileged = true and proc.cmdline contains kestrel-e2e-meta\n"
                          "  output: privileged %proc.cmdline\n  priority: WARNING\n"
                          // The container's first process: Podman answers only once the start
                          // is over, after this exec, so the event waits for the metadata.
                          "- rule: Started privileged\n  desc: d\n  condition: evt.type = execve "
                          "and proc.vpid = 1 and container.privileged = true and proc.cmdline "
                          "contains kestrel-e2e-meta\n  output: started privileged %proc.cmdline "
                          "in %container.name\n  priority: WARNING\n"));
  KestrelProcess run({"run", "-r", dir_.File("rules.yaml"), "--no-pin", "-o",
                      "container_engines.docker.sockets=[]", "-o", "rule_matching=all", "-o",
                      "container_engines.podman.sockets=[" + service_->socket() + "]"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));
  const std::string name = absl::StrCat("kestrel-e2e-meta-", getpid());
  // The pod's sandbox, labelled as the kubelet labels one: it holds the
  // pod's labels.
  const ContainerRun sandbox = RunContainer(
      {"-d", "--name", name + "-pod", "--label", "tier=front", "--label",
       "io.kubernetes.docker.type=podsandbox", "--label", "io.kubernetes.pod.name=web-0", "--label",
       "annotation.seen=now", "--network", "none"},
      {"sleep", "30"});
  ASSERT_EQ(sandbox.exit_code, 0);
  ASSERT_EQ(sandbox.id.size(), 64u);
  // The second process starts a second in: by then the first one's exec
  // has had the metadata fetched.
  const ContainerRun container = RunContainer(
      {"--name", name, "--privileged", "--label", "app=web", "--label",
       "io.kubernetes.pod.name=web-0", "--label", "io.kubernetes.pod.namespace=shop", "--label",
       "io.kubernetes.pod.uid=5f0c2a6e-1c1d-4e0a-9b1e-2d3c4b5a6f70", "--label",
       "io.kubernetes.sandbox.id=" + sandbox.id, "-v", "/etc:/host-etc:ro", "--network", "none"},
      {"/bin/sh", "-c", "sleep 1; /bin/echo kestrel-e2e-meta"});
  ASSERT_EQ(container.exit_code, 0);
  // Judged once the metadata arrived, before the second process started.
  const std::optional<std::string> started = run.WaitForLine(
      absl::StrCat("started privileged sh -c sleep 1; /bin/echo kestrel-e2e-meta in ", name),
      kAlertTimeout);
  const std::optional<std::string> alert =
      run.WaitForLine("meta cmd=echo kestrel-e2e-meta", kAlertTimeout);
  const std::optional<std::string> privileged =
      run.WaitForLine("privileged echo kestrel-e2e-meta", kAlertTimeout);

  RunArgv({"podman", "--runtime", "runc", "--cgroup-manager", "cgroupfs", "rm", "-f", "-t", "0",
           sandbox.id});
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(
      *alert, absl::StrCat("name=", name, " image=", BusyboxImage(), " repo=", kBusyboxRepository,
                           " tag=pid", getpid(),
                           " privileged=true "
                           "label=web dest=/host-etc none=N/A labels=app:web pod=web-0 ns=shop "
                           "uid=5f0c2a6e-1c1d-4e0a-9b1e-2d3c4b5a6f70 sandbox=",
                           sandbox.id.substr(0, 12),
                           " podlabel=front podlabels=tier:front mount=/etc:/host-etc::false:"
                           "rprivate source=/etc rw=false")))
      << *alert;
  EXPECT_TRUE(privileged) << r.out;
  EXPECT_TRUE(started) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "container metadata from docker API " + service_->socket()))
      << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "cannot fire here")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "; containers known ")) << r.err;
}

// `rules validate` reads the config `kestrel run` would: with a runtime
// answering on its sockets, a rule reading container metadata is not named.
TEST_F(ContainerMetadataTest, ValidateReadsTheSocketsFromTheConfig) {
  const std::string rules = dir_.File("privileged.yaml");
  WriteWhole(rules,
             "- rule: Privileged\n  desc: d\n  condition: evt.type = execve and "
             "container.privileged = true\n  output: o\n  priority: WARNING\n");
  const std::string config = dir_.File("kestrel.yaml");
  WriteWhole(config, absl::StrCat("rules_files: [", rules,
                                  "]\ncontainer_engines:\n  docker:\n    sockets: []\n"
                                  "  podman:\n    sockets: [",
                                  service_->socket(), "]\n"));
  CliResult r = RunKestrel({"rules", "validate", "-c", config});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "valid: 1 rules loaded (1 enabled), 0 skipped\n");
  r = RunKestrel({"rules", "validate", "-o", "container_engines.docker.sockets=[]", "-o",
                  "container_engines.podman.sockets=[/nonexistent/podman.sock]", rules});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "warning: rule 'Privileged': cannot fire here")) << r.out;
}

}  // namespace
}  // namespace kestrel::e2e
