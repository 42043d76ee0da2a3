// Issue 36: container and pod metadata from the CRI. A private containerd
// (containerd.h) runs a real pod and its containers where the kubelet's
// cgroupfs driver puts them; `kestrel run` is pointed at that containerd's
// socket only, and the alerts for processes in the pod's containers carry
// what containerd says about the container and its pod, for a container
// started before Kestrel too. containerd 1.6
// has no CRI event stream, so the container's first process, which runs
// before anything asked about it, is judged once its metadata is fetched.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <map>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "containerd.h"
#include "kestrel_process.h"
#include "podman.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

class ContainerCriTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    missing_ = Containerd::Missing();
    if (missing_.empty()) image_ = BuildBusyboxImage();
  }
  static void TearDownTestSuite() {
    if (image_) RemoveBusyboxImage();
  }
  void SetUp() override {
    ASSERT_EQ(geteuid(), 0u) << "kestrel tests never skip: run as root";
    // scripts/install-deps.sh --tests installs containerd: a missing one is
    // a broken set-up, not a reason to pass.
    ASSERT_EQ(missing_, "");
    ASSERT_TRUE(image_) << "the busybox image could not be built";
  }

  static inline std::string missing_;
  static inline bool image_ = false;
  RunTempDir dir_;
};

TEST_F(ContainerCriTest, AlertsCarryWhatTheCriSays) {
  Containerd containerd;
  ASSERT_TRUE(containerd.ok()) << containerd.error();
  CriClient& cri = containerd.cri();

  WriteWhole(dir_.File("rules.yaml"),
             absl::StrCat(OpenRule(dir_.path()),
                          "- rule: Exec in pod\n  desc: d\n  condition: evt.type = execve and "
                          "container.id != host and proc.cmdline contains kestrel-e2e-cri\n"
                          "  output: cri cmd=%proc.cmdline type=%container.type "
                          "name=%container.name image=%container.image "
                          "repo=%container.image.repository tag=%container.image.tag "
                          "privileged=%container.privileged label=%container.label[app] "
                          "labels=%container.labels dest=%container.mount.dest[/etc] "
                          "rw=%container.mount.rdwr[/etc] pod=%k8s.pod.name ns=%k8s.ns.name "
                          "uid=%k8s.pod.uid sandbox=%k8s.pod.full_sandbox_id "
                          "podlabel=%k8s.pod.label[tier] hostnet=%container.host_network "
                          "user=%container.user\n  priority: WARNING\n"
                          "- rule: Early\n  desc: d\n  condition: evt.type = execve and "
                          "proc.cmdline contains kestrel-e2e-cri-early\n  output: early "
                          "%container.name of %k8s.pod.name in %k8s.ns.name\n  priority: "
                          "WARNING\n"
                          "- rule: Started privileged\n  desc: d\n  condition: evt.type = execve "
                          "and proc.vpid = 1 and container.privileged = true and proc.cmdline "
                          "contains kestrel-e2e-cri\n  output: started privileged %proc.cmdline "
                          "in %container.name of %k8s.pod.name\n  priority: WARNING\n"));
  // A pod whose container runs before Kestrel starts: known from the
  // start snapshot's cgroups, asked about when first seen.
  const std::string uid = absl::StrCat("4e2e0000-0000-4000-8000-", 200000000000 + getpid());
  const std::string early_uid = absl::StrCat("4e2e0000-0000-4000-8000-", 300000000000 + getpid());
  CriPodSpec early_pod;
  early_pod.name = "early-0";
  early_pod.kube_namespace = "batch";
  early_pod.uid = early_uid;
  early_pod.labels = {{"io.kubernetes.pod.name", "early-0"},
                      {"io.kubernetes.pod.namespace", "batch"},
                      {"io.kubernetes.pod.uid", early_uid}};
  const std::string early_pod_id = cri.RunPod(early_pod);
  ASSERT_EQ(early_pod_id.size(), 64u) << cri.error();
  CriContainerSpec early;
  early.name = "ticker";
  early.image = BusyboxImage();
  early.command = {"/bin/sh", "-c", "while :; do /bin/echo kestrel-e2e-cri-early; sleep 0.2; done"};
  early.labels = early_pod.labels;
  const std::string early_id = cri.StartContainer(early_pod_id, early);
  ASSERT_EQ(early_id.size(), 64u) << cri.error();

  KestrelProcess run({"run", "-r", dir_.File("rules.yaml"), "--no-pin", "-o", "rule_matching=all",
                      "-o", "container_engines.docker.sockets=[]", "-o",
                      "container_engines.podman.sockets=[]", "-o",
                      "container_engines.cri.sockets=[" + containerd.socket() + "]"});
  ASSERT_TRUE(WaitUntilAlerting(run, dir_));

  // Labelled as the kubelet labels a pod and its containers.
  const std::map<std::string, std::string> pod_labels = {{"io.kubernetes.pod.name", "web-0"},
                                                         {"io.kubernetes.pod.namespace", "shop"},
                                                         {"io.kubernetes.pod.uid", uid}};
  CriPodSpec pod_spec;
  pod_spec.name = "web-0";
  pod_spec.kube_namespace = "shop";
  pod_spec.uid = uid;
  pod_spec.labels = pod_labels;
  pod_spec.labels["tier"] = "front";
  pod_spec.privileged = true;
  const std::string pod = cri.RunPod(pod_spec);
  ASSERT_EQ(pod.size(), 64u) << cri.error();

  CriContainerSpec shell;
  shell.name = "shell";
  shell.image = BusyboxImage();
  // The second process starts a second in: by then the first one's exec
  // has had the metadata fetched.
  shell.command = {"/bin/sh", "-c", "sleep 1; /bin/echo kestrel-e2e-cri"};
  shell.labels = pod_labels;
  shell.labels["io.kubernetes.container.name"] = "shell";
  shell.labels["app"] = "web";
  shell.privileged = true;
  shell.mounts = {{"/etc", "/host-etc", true}};
  const CriRun ran = cri.Run(pod, shell);
  ASSERT_EQ(ran.id.size(), 64u) << cri.error();
  EXPECT_EQ(ran.exit_code, 0) << ran.out;

  const std::optional<std::string> started = run.WaitForLine(
      "started privileged sh -c sleep 1; /bin/echo kestrel-e2e-cri in shell of web-0",
      kAlertTimeout);
  const std::optional<std::string> alert =
      run.WaitForLine("cri cmd=echo kestrel-e2e-cri ", kAlertTimeout);
  const std::optional<std::string> before =
      run.WaitForLine("early ticker of early-0 in batch", kAlertTimeout);
  run.Signal(SIGINT);
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(alert) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(
      *alert, absl::StrCat("type=containerd name=shell image=", BusyboxImage(),
                           " repo=", kBusyboxRepository, " tag=pid", getpid(),
                           " privileged=true "
                           "label=web labels=app:web dest=/host-etc rw=false pod=web-0 ns=shop "
                           "uid=",
                           uid, " sandbox=", pod, " podlabel=front hostnet=true user=0")))
      << *alert;
  EXPECT_TRUE(started) << r.out << r.err;
  EXPECT_TRUE(before) << r.out << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "container metadata from CRI " + containerd.socket()))
      << r.err;
  EXPECT_FALSE(absl::StrContains(r.err, "cannot fire here")) << r.err;
}

}  // namespace
}  // namespace kestrel::e2e
