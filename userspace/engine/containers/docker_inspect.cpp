#include "engine/containers/docker_inspect.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "engine/containers/image_reference.h"
#include "engine/containers/runtime_json.h"

namespace kestrel::engine::containers {
namespace {
// The library is a unity build: these helpers get a namespace of their own
// so that they cannot meet a sibling file's file-local names.
namespace docker_inspect_json {

using json::BoolOr;
using json::Labels;
using json::Member;
using json::Path;
using json::StringOr;
using json::Strings;

// Docker's zero time ("0001-01-01T00:00:00Z", never started) and anything
// before the epoch or past what 64 bits of ns hold are not known: 0.
uint64_t StartNs(const std::string& started_at) {
  absl::Time t;
  std::string err;
  if (started_at.empty() || !absl::ParseTime(absl::RFC3339_full, started_at, &t, &err)) return 0;
  if (t <= absl::UnixEpoch() || t > absl::FromUnixNanos(std::numeric_limits<int64_t>::max())) {
    return 0;
  }
  return static_cast<uint64_t>(absl::ToUnixNanos(t));
}

// The process the container runs: Docker's Path and Args are its argv,
// the image's entrypoint and command already resolved into it. Falco's
// container plugin fills no command line from the runtime, so this follows
// the runtime. Config.Entrypoint then Config.Cmd stand in when Path is
// missing.
std::string Cmdline(const YAML::Node& root) {
  std::vector<std::string> argv;
  if (std::string path = StringOr(Member(root, "Path")); !path.empty()) {
    argv.push_back(std::move(path));
    for (std::string& arg : Strings(Member(root, "Args"))) argv.push_back(std::move(arg));
  } else {
    argv = Strings(Path(root, {"Config", "Entrypoint"}));
    for (std::string& arg : Strings(Path(root, {"Config", "Cmd"}))) argv.push_back(std::move(arg));
  }
  return absl::StrJoin(argv, " ");
}

// Docker's Healthcheck.Test: ["CMD", argv...], ["CMD-SHELL", "command"]
// (run by /bin/sh -c), ["NONE"] (disabled), or [] (the image's). The
// command line of the process the runtime starts ("sh -c command" for
// CMD-SHELL), so it compares with proc.cmdline; empty when there is none.
std::string Healthcheck(const YAML::Node& test) {
  std::vector<std::string> parts = Strings(test);
  if (parts.size() < 2 || (parts[0] != "CMD" && parts[0] != "CMD-SHELL")) return "";
  const bool shell = parts[0] == "CMD-SHELL";
  parts.erase(parts.begin());
  const std::string command = absl::StrJoin(parts, " ");
  return shell ? "sh -c " + command : command;
}

// NetworkSettings.IPAddress is the default bridge's address (and is gone
// from recent Docker APIs); otherwise the first network, in the runtime's
// order, that gave the container one.
std::string Ip(const YAML::Node& settings) {
  if (std::string ip = StringOr(Member(settings, "IPAddress")); !ip.empty()) return ip;
  const YAML::Node networks = Member(settings, "Networks");
  if (!networks.IsDefined() || !networks.IsMap()) return "";
  for (const auto& entry : networks) {
    if (std::string ip = StringOr(Member(entry.second, "IPAddress")); !ip.empty()) return ip;
  }
  return "";
}

std::vector<ContainerMount> Mounts(const YAML::Node& mounts) {
  std::vector<ContainerMount> out;
  if (!mounts.IsDefined() || !mounts.IsSequence()) return out;
  for (const YAML::Node& m : mounts) {
    if (!m.IsMap()) continue;
    ContainerMount mount;
    mount.source = StringOr(Member(m, "Source"));
    mount.dest = StringOr(Member(m, "Destination"));
    mount.mode = StringOr(Member(m, "Mode"));
    mount.rw = BoolOr(Member(m, "RW"), mount.rw);
    mount.propagation = StringOr(Member(m, "Propagation"));
    out.push_back(std::move(mount));
  }
  return out;
}

absl::StatusOr<ContainerMetadata> FromDocument(const YAML::Node& root) {
  if (!root.IsMap()) return absl::InvalidArgumentError("container inspect: not a JSON object");
  ContainerMetadata m;
  m.id = StringOr(Member(root, "Id"));
  if (m.id.empty()) return absl::InvalidArgumentError("container inspect: no \"Id\"");

  m.name = StringOr(Member(root, "Name"));
  if (m.name.starts_with('/')) m.name.erase(0, 1);

  const YAML::Node config = Member(root, "Config");
  m.image = StringOr(Member(config, "Image"));
  ImageReference ref = SplitImageReference(m.image);
  m.image_repository = std::move(ref.repository);
  m.image_tag = std::move(ref.tag);
  m.image_digest = std::move(ref.digest);
  m.image_id = ImageId(StringOr(Member(root, "Image")));
  m.labels = Labels(Member(config, "Labels"));
  m.user = StringOr(Member(config, "User"));
  m.healthcheck = Healthcheck(Path(config, {"Healthcheck", "Test"}));
  m.cmdline = Cmdline(root);

  // Docker's modes: "host" shares the host's namespace; "container:<id>",
  // "private", "shareable" and the rest do not.
  const YAML::Node host = Member(root, "HostConfig");
  m.privileged = BoolOr(Member(host, "Privileged"), false);
  m.host_network = StringOr(Member(host, "NetworkMode")) == "host";
  m.host_pid = StringOr(Member(host, "PidMode")) == "host";
  m.host_ipc = StringOr(Member(host, "IpcMode")) == "host";

  m.mounts = Mounts(Member(root, "Mounts"));
  m.ip = Ip(Member(root, "NetworkSettings"));
  m.start_ns = StartNs(StringOr(Path(root, {"State", "StartedAt"})));

  // What the kubelet's Docker shim (dockershim, cri-dockerd) labels a pod's
  // containers and its sandbox with.
  for (const auto& [key, value] : m.labels) {
    if (key == "io.kubernetes.sandbox.id" && value != m.id) m.pod_sandbox_id = value;
    if (key == "io.kubernetes.docker.type" && value == "podsandbox") m.is_pod_sandbox = true;
  }
  return m;
}

}  // namespace docker_inspect_json
}  // namespace

absl::StatusOr<ContainerMetadata> ParseDockerInspect(std::string_view document) {
  // yaml-cpp reports everything by exception: none leaves this function.
  try {
    const YAML::Node root = json::Load(document);
    return docker_inspect_json::FromDocument(root);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("container inspect: not JSON: ", e.what()));
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("container inspect: ", e.what()));
  }
}

}  // namespace kestrel::engine::containers
