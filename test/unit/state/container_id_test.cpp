// container.id from cgroup paths (v2 and v1) laid out the way each runtime lays
// them out (fixtures written from the runtimes' naming schemes).
#include "engine/state/container_id.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace kestrel::engine::state {
namespace {

const std::string kId = "3f4a9c0e1b2d3c4e5f60718293a4b5c6d7e8f90112233445566778899aabbccd";
const std::string kInner = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

struct Fixture {
  std::string path;
  ContainerRuntime runtime;
  std::string id;
};

TEST(ContainerIdTest, EachRuntimesLayoutYieldsTheShortId) {
  const Fixture fixtures[] = {
      {"/system.slice/docker-" + kId + ".scope", ContainerRuntime::kDocker, "3f4a9c0e1b2d"},
      {"/docker/" + kId, ContainerRuntime::kDocker, "3f4a9c0e1b2d"},
      {"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1a2b3c4d_5e6f_7a8b_9c0d_"
       "1e2f3a4b5c6d.slice/cri-containerd-" +
           kId + ".scope",
       ContainerRuntime::kContainerd, "3f4a9c0e1b2d"},
      {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podabc.slice/crio-" + kId +
           ".scope",
       ContainerRuntime::kCrio, "3f4a9c0e1b2d"},
      {"/kubepods/besteffort/pod1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d/" + kId,
       ContainerRuntime::kKubernetes, "3f4a9c0e1b2d"},
      {"/machine.slice/libpod-" + kId + ".scope", ContainerRuntime::kPodman, "3f4a9c0e1b2d"},
      {"/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" + kId +
           ".scope/container",
       ContainerRuntime::kPodman, "3f4a9c0e1b2d"},
      {"/system.slice/containerd.service/containerd-" + kId + ".scope",
       ContainerRuntime::kContainerd, "3f4a9c0e1b2d"},
  };
  for (const Fixture& f : fixtures) {
    const ContainerId c = ContainerIdFromCgroupPath(f.path);
    EXPECT_EQ(c.runtime, f.runtime) << f.path;
    EXPECT_EQ(c.id, f.id) << f.path;
    EXPECT_EQ(c.full_id, kId) << f.path;
    EXPECT_FALSE(c.is_host()) << f.path;
  }
}

TEST(ContainerIdTest, HostPathsAreTheHost) {
  const std::string hosts[] = {
      "/",
      "",
      "/init.scope",
      "/system.slice/sshd.service",
      "/user.slice/user-0.slice/session-3.scope",
      "/machine.slice/libpod-conmon-" + kId + ".scope",        // podman's monitor
      "/system.slice/" + kId,                                  // a bare id under no runtime
      "/system.slice/docker-" + kId.substr(0, 63) + ".scope",  // one digit short
      "/system.slice/docker-" + std::string(64, 'G') + ".scope",
  };
  for (const std::string& path : hosts) {
    const ContainerId c = ContainerIdFromCgroupPath(path);
    EXPECT_TRUE(c.is_host()) << path;
    EXPECT_EQ(c.id, "host") << path;
    EXPECT_EQ(c.full_id, "") << path;
    EXPECT_EQ(ContainerRuntimeName(c.runtime), "host");
  }
}

TEST(ContainerIdTest, TheInnermostContainerWins) {
  // Docker in docker: the inner container's cgroup sits below the outer's.
  const ContainerId c = ContainerIdFromCgroupPath("/docker/" + kId + "/docker/" + kInner);
  EXPECT_EQ(c.id, "0123456789ab");
  EXPECT_EQ(c.runtime, ContainerRuntime::kDocker);
  // A container's own sub-cgroup still belongs to it.
  EXPECT_EQ(ContainerIdFromCgroupPath("/system.slice/docker-" + kId + ".scope/init").id,
            "3f4a9c0e1b2d");
}

TEST(ContainerIdTest, RuntimeNamesAreFalcosContainerTypes) {
  EXPECT_EQ(ContainerRuntimeName(ContainerRuntime::kDocker), "docker");
  EXPECT_EQ(ContainerRuntimeName(ContainerRuntime::kContainerd), "containerd");
  EXPECT_EQ(ContainerRuntimeName(ContainerRuntime::kCrio), "cri-o");
  EXPECT_EQ(ContainerRuntimeName(ContainerRuntime::kPodman), "podman");
  EXPECT_EQ(ContainerRuntimeName(ContainerRuntime::kKubernetes), "cri");
}

TEST(ContainerIdTest, ProcCgroupFileGivesThePathNamingTheContainer) {
  const std::string id(64, 'a');
  // cgroup v2 only.
  EXPECT_EQ(ContainerCgroupPathFromProcFile("0::/system.slice/sshd.service\n"),
            "/system.slice/sshd.service");
  // Hybrid, the container in v1 controllers only: the unified path is the
  // host's, the memory controller's names the container.
  EXPECT_EQ(ContainerCgroupPathFromProcFile(
                absl::StrCat("12:memory:/docker/", id, "\n1:name=systemd:/y\n0::/\n")),
            absl::StrCat("/docker/", id));
  // Hybrid, the container everywhere: the unified path.
  EXPECT_EQ(ContainerCgroupPathFromProcFile(
                absl::StrCat("4:cpuset:/docker/", id, "\n0::/docker/", id, "\n")),
            absl::StrCat("/docker/", id));
  // No container: the unified path, else the first v1 one.
  EXPECT_EQ(ContainerCgroupPathFromProcFile("12:memory:/x\n1:name=systemd:/y\n0::/z\n"), "/z");
  EXPECT_EQ(ContainerCgroupPathFromProcFile("12:memory:/x\n"), "/x");
  EXPECT_EQ(ContainerCgroupPathFromProcFile(""), "");
  // A colon inside a path is part of it.
  EXPECT_EQ(ContainerCgroupPathFromProcFile("0::/a:b\n"), "/a:b");
}

TEST(ContainerIdTest, OfSeveralHierarchiesTheOneNamingAContainerWins) {
  const std::string id(64, 'b');
  const std::string crio = absl::StrCat("/kubepods/besteffort/podx/crio-", id);
  EXPECT_EQ(ContainerCgroupPath({"/", "/user.slice", crio}), crio);
  EXPECT_EQ(ContainerIdFromCgroupPath(ContainerCgroupPath({"/", crio})).runtime,
            ContainerRuntime::kCrio);
  EXPECT_EQ(ContainerCgroupPath({"/user.slice", "/"}), "/user.slice");
  EXPECT_EQ(ContainerCgroupPath({}), "");
}

}  // namespace
}  // namespace kestrel::engine::state
