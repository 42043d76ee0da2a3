// The CRI's ContainerStatus and PodSandboxStatus answers read into
// ContainerMetadata: fields from the messages, the rest from the verbose
// info document in containerd's and CRI-O's shapes, and info documents
// that are broken or hostile.
#include "agent/containers/cri/cri_status.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace kestrel::agent::containers {
using namespace ::kestrel::engine::containers;  // NOLINT(google-build-using-namespace)
namespace {

using CriLabels = std::vector<std::pair<std::string, std::string>>;

constexpr char kCriId[] = "7b3c0a64ac1ec5a1d1c66b3f2e8a3c7d7f1e2d3c4b5a69788796a5b4c3d2e1f0";
constexpr char kCriSandbox[] = "e0d1c2b3a4958677869a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0a";

// containerd's info for a privileged container on the host's network,
// trimmed to what is read and what sits next to it.
constexpr char kContainerdInfo[] = R"json({
  "sandboxID": "e0d1c2b3a4958677869a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0a",
  "pid": 4242, "removing": false, "snapshotter": "overlayfs", "runtimeType": "io.containerd.runc.v2",
  "config": {"metadata": {"name": "shell"}, "image": {"image": "localhost/tools:1.2"},
             "linux": {"security_context": {"privileged": true,
                                            "namespace_options": {"network": 2, "pid": 1}}}},
  "runtimeSpec": {"ociVersion": "1.0.2-dev",
                  "process": {"user": {"uid": 1000, "gid": 1000}, "args": ["sh", "-c", "sleep 60"]},
                  "linux": {"namespaces": [{"type": "pid"}, {"type": "ipc"}, {"type": "uts"},
                                           {"type": "mount"}, {"type": "network", "path": "/proc/4242/ns/net"}]}}
})json";

runtime::v1::ContainerStatusResponse ContainerAnswer() {
  runtime::v1::ContainerStatusResponse a;
  runtime::v1::ContainerStatus* s = a.mutable_status();
  s->set_id(kCriId);
  s->mutable_metadata()->set_name("shell");
  s->mutable_image()->set_image("localhost/tools:1.2");
  s->set_image_ref("sha256:ff329beb82bc53abe5a970e07d26d5e508912dc444bdc6bb0473f37fb6442153");
  s->set_started_at(1733400000123456789);
  (*s->mutable_labels())["io.kubernetes.pod.name"] = "web-0";
  (*s->mutable_labels())["io.kubernetes.pod.namespace"] = "shop";
  (*s->mutable_labels())["app"] = "web";
  runtime::v1::Mount* m = s->add_mounts();
  m->set_container_path("/host-etc");
  m->set_host_path("/etc");
  m->set_readonly(true);
  m = s->add_mounts();
  m->set_container_path("/data");
  m->set_host_path("/srv/data");
  m->set_propagation(runtime::v1::PROPAGATION_BIDIRECTIONAL);
  (*a.mutable_info())["info"] = kContainerdInfo;
  return a;
}

TEST(CriStatusTest, ContainerdContainer) {
  absl::StatusOr<ContainerMetadata> m = FromCriContainerStatus(ContainerAnswer());
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, kCriId);
  EXPECT_EQ(m->name, "shell");
  EXPECT_EQ(m->image, "localhost/tools:1.2");
  EXPECT_EQ(m->image_repository, "localhost/tools");
  EXPECT_EQ(m->image_tag, "1.2");
  EXPECT_EQ(m->image_digest, "");
  EXPECT_EQ(m->image_id, "ff329beb82bc53abe5a970e07d26d5e508912dc444bdc6bb0473f37fb6442153");
  EXPECT_EQ(m->labels, (CriLabels{{"app", "web"},
                                  {"io.kubernetes.pod.name", "web-0"},
                                  {"io.kubernetes.pod.namespace", "shop"}}));
  ASSERT_EQ(m->mounts.size(), 2u);
  EXPECT_EQ(m->mounts[0].source, "/etc");
  EXPECT_EQ(m->mounts[0].dest, "/host-etc");
  EXPECT_FALSE(m->mounts[0].rw);
  EXPECT_EQ(m->mounts[0].propagation, "private");
  EXPECT_TRUE(m->mounts[1].rw);
  EXPECT_EQ(m->mounts[1].propagation, "rshared");
  EXPECT_EQ(m->start_ns, 1733400000123456789u);
  EXPECT_EQ(m->pod_sandbox_id, kCriSandbox);
  EXPECT_FALSE(m->is_pod_sandbox);
  EXPECT_TRUE(m->privileged);
  EXPECT_EQ(m->cmdline, "sh -c sleep 60");
  EXPECT_EQ(m->user, "1000");
  EXPECT_TRUE(m->host_network);  // the pod's mode, though it joins the sandbox's by path
  EXPECT_FALSE(m->host_pid);
  EXPECT_FALSE(m->host_ipc);
}

TEST(CriStatusTest, CrioSaysPrivilegedAtTheTop) {
  runtime::v1::ContainerStatusResponse a = ContainerAnswer();
  (*a.mutable_info())["info"] =
      R"({"sandboxID": "e0d1c2b3a4958677869a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0a",)"
      R"( "pid": 7, "privileged": true, "runtimeSpec": {"linux": {"namespaces": [)"
      R"({"type": "network", "path": "/var/run/netns/x"}, {"type": "pid"}]}}})";
  absl::StatusOr<ContainerMetadata> m = FromCriContainerStatus(a);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->privileged);
  EXPECT_FALSE(m->host_network);
  EXPECT_FALSE(m->host_pid);
  EXPECT_TRUE(m->host_ipc);
  EXPECT_EQ(m->cmdline, "");
}

TEST(CriStatusTest, DigestFromTheImageReference) {
  runtime::v1::ContainerStatusResponse a = ContainerAnswer();
  a.mutable_status()->set_image_ref(
      "docker.io/library/"
      "nginx@sha256:0ca0fed353fb77c247abada85aebc667fd1f5fa0b5f6ab1efb26867ba18f2f0a");
  a.mutable_status()->set_image_id(
      "sha256:1111111111111111111111111111111111111111111111111111111111111111");
  absl::StatusOr<ContainerMetadata> m = FromCriContainerStatus(a);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->image_digest,
            "sha256:0ca0fed353fb77c247abada85aebc667fd1f5fa0b5f6ab1efb26867ba18f2f0a");
  EXPECT_EQ(m->image_id, "1111111111111111111111111111111111111111111111111111111111111111");
}

TEST(CriStatusTest, InfoThatIsBrokenOrMistypedChangesNothing) {
  for (const char* info :
       {"", "{", "[1,2]", "null", "\"x\"", "{\"sandboxID\": 5, \"privileged\": \"yes\"}",
        "{\"runtimeSpec\": {\"process\": {\"args\": \"sh\", \"user\": {\"uid\": \"0\"}},"
        " \"linux\": {\"namespaces\": {\"type\": \"pid\"}}}}",
        "{\"config\": [1], \"runtimeSpec\": 3}", "{\"a\": \"\\ud800\"}"}) {
    runtime::v1::ContainerStatusResponse a = ContainerAnswer();
    (*a.mutable_info())["info"] = info;
    absl::StatusOr<ContainerMetadata> m = FromCriContainerStatus(a);
    ASSERT_TRUE(m.ok()) << info;
    EXPECT_EQ(m->pod_sandbox_id, "") << info;
    EXPECT_FALSE(m->privileged) << info;
    EXPECT_EQ(m->cmdline, "") << info;
    EXPECT_EQ(m->user, "") << info;
    EXPECT_FALSE(m->host_network) << info;
    EXPECT_EQ(m->name, "shell") << info;
  }
}

TEST(CriStatusTest, AnswerWithoutIdIsAnError) {
  EXPECT_FALSE(FromCriContainerStatus(runtime::v1::ContainerStatusResponse()).ok());
  EXPECT_FALSE(FromCriPodSandboxStatus(runtime::v1::PodSandboxStatusResponse()).ok());
}

TEST(CriStatusTest, PodSandbox) {
  runtime::v1::PodSandboxStatusResponse a;
  runtime::v1::PodSandboxStatus* s = a.mutable_status();
  s->set_id(kCriSandbox);
  s->mutable_metadata()->set_name("web-0");
  s->mutable_network()->set_ip("10.88.0.7");
  s->set_created_at(1733400000000000000);
  s->mutable_linux()->mutable_namespaces()->mutable_options()->set_pid(runtime::v1::NODE);
  (*s->mutable_labels())["tier"] = "front";
  (*s->mutable_labels())["io.kubernetes.pod.name"] = "web-0";
  absl::StatusOr<ContainerMetadata> m = FromCriPodSandboxStatus(a);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, kCriSandbox);
  EXPECT_TRUE(m->is_pod_sandbox);
  EXPECT_EQ(m->name, "web-0");
  EXPECT_EQ(m->ip, "10.88.0.7");
  EXPECT_EQ(m->labels, (CriLabels{{"io.kubernetes.pod.name", "web-0"}, {"tier", "front"}}));
  EXPECT_FALSE(m->host_network);
  EXPECT_TRUE(m->host_pid);
  EXPECT_EQ(m->start_ns, 1733400000000000000u);
}

}  // namespace
}  // namespace kestrel::agent::containers
