#include "agent/containers/cri/cri_status.h"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "engine/containers/image_reference.h"
#include "engine/containers/runtime_json.h"

namespace kestrel::agent::containers {

// The runtimes' answers become the engine's container metadata.
using namespace ::kestrel::engine::containers;  // NOLINT(google-build-using-namespace)

namespace {
namespace cri_status_parts {

template <typename ProtoMap>
std::vector<std::pair<std::string, std::string>> SortedLabels(const ProtoMap& labels) {
  std::vector<std::pair<std::string, std::string>> out(labels.begin(), labels.end());
  std::sort(out.begin(), out.end());
  return out;
}

// Docker's names for the CRI's propagation modes, which Falco reports.
std::string Propagation(runtime::v1::MountPropagation p) {
  switch (p) {
    case runtime::v1::PROPAGATION_HOST_TO_CONTAINER:
      return "rslave";
    case runtime::v1::PROPAGATION_BIDIRECTIONAL:
      return "rshared";
    default:
      return "private";
  }
}

// Whether the OCI spec's namespaces lack `type`: the container then shares
// the host's. (A namespace joined by path may be the host's too, which the
// spec does not tell; CRI-O's info has nothing better.)
bool SharesHostNamespace(const YAML::Node& namespaces, const char* type) {
  for (const YAML::Node& ns : namespaces) {
    if (json::StringOr(json::Member(ns, "type")) == type) return false;
  }
  return true;
}

// A CRI NamespaceMode as containerd writes it into its info: the enum's
// number, or its name.
bool IsNodeMode(const YAML::Node& mode) {
  return mode.IsDefined() && mode.IsScalar() && (mode.Scalar() == "2" || mode.Scalar() == "NODE");
}

}  // namespace cri_status_parts
}  // namespace

void ApplyCriInfo(std::string_view info, ContainerMetadata& m) {
  using json::Member;
  using json::Path;
  try {
    const YAML::Node root = json::Load(info);
    if (!root.IsMap()) return;
    if (std::string sandbox = json::StringOr(Member(root, "sandboxID")); sandbox != m.id) {
      m.pod_sandbox_id = std::move(sandbox);
    }
    // containerd keeps the CRI config it was created with, CRI-O says it.
    m.privileged =
        json::BoolOr(Path(root, {"config", "linux", "security_context", "privileged"}), false) ||
        json::BoolOr(Member(root, "privileged"), false);
    const YAML::Node spec = Member(root, "runtimeSpec");
    if (std::vector<std::string> args = json::Strings(Path(spec, {"process", "args"}));
        !args.empty()) {
      m.cmdline = absl::StrJoin(args, " ");
    }
    if (const YAML::Node uid = Path(spec, {"process", "user", "uid"});
        uid.IsDefined() && uid.IsScalar() && uid.Tag() == "?") {
      m.user = uid.Scalar();
    }
    // containerd keeps the pod's namespace modes: a host-network pod's
    // containers join the sandbox's namespace by path, which the spec
    // cannot tell from a pod network's.
    if (const YAML::Node modes =
            Path(root, {"config", "linux", "security_context", "namespace_options"});
        modes.IsMap()) {
      m.host_network = cri_status_parts::IsNodeMode(Member(modes, "network"));
      m.host_pid = cri_status_parts::IsNodeMode(Member(modes, "pid"));
      m.host_ipc = cri_status_parts::IsNodeMode(Member(modes, "ipc"));
    } else if (const YAML::Node ns = Path(spec, {"linux", "namespaces"}); ns.IsSequence()) {
      m.host_network = cri_status_parts::SharesHostNamespace(ns, "network");
      m.host_pid = cri_status_parts::SharesHostNamespace(ns, "pid");
      m.host_ipc = cri_status_parts::SharesHostNamespace(ns, "ipc");
    }
  } catch (const std::exception&) {
    // Not JSON, or not the shape expected: what it would fill stays unset.
  }
}

absl::StatusOr<ContainerMetadata> FromCriContainerStatus(
    const runtime::v1::ContainerStatusResponse& answer) {
  const runtime::v1::ContainerStatus& s = answer.status();
  if (s.id().empty()) return absl::InvalidArgumentError("CRI container status: no id");
  ContainerMetadata m;
  m.id = s.id();
  m.name = s.metadata().name();
  m.image = s.image().image();
  ImageReference ref = SplitImageReference(m.image);
  m.image_repository = std::move(ref.repository);
  m.image_tag = std::move(ref.tag);
  m.image_digest = std::move(ref.digest);
  // image_ref is the image's digest reference ("repo@sha256:...") or,
  // for an image pulled by no registry, its id ("sha256:...").
  const std::string& image_ref = s.image_ref();
  if (const size_t at = image_ref.find('@'); at != std::string::npos) {
    if (m.image_digest.empty()) m.image_digest = image_ref.substr(at + 1);
  } else if (image_ref.starts_with("sha256:")) {
    m.image_id = ImageId(image_ref);
  }
  if (!s.image_id().empty()) m.image_id = ImageId(s.image_id());
  m.labels = cri_status_parts::SortedLabels(s.labels());
  for (const runtime::v1::Mount& mount : s.mounts()) {
    m.mounts.push_back(
        ContainerMount{.source = mount.host_path(),
                       .dest = mount.container_path(),
                       .mode = "",
                       .rw = !mount.readonly(),
                       .propagation = cri_status_parts::Propagation(mount.propagation())});
  }
  if (s.started_at() > 0) m.start_ns = static_cast<uint64_t>(s.started_at());
  if (auto it = answer.info().find("info"); it != answer.info().end()) ApplyCriInfo(it->second, m);
  return m;
}

absl::StatusOr<ContainerMetadata> FromCriPodSandboxStatus(
    const runtime::v1::PodSandboxStatusResponse& answer) {
  const runtime::v1::PodSandboxStatus& s = answer.status();
  if (s.id().empty()) return absl::InvalidArgumentError("CRI pod sandbox status: no id");
  ContainerMetadata m;
  m.id = s.id();
  m.name = s.metadata().name();
  m.is_pod_sandbox = true;
  m.labels = cri_status_parts::SortedLabels(s.labels());
  m.ip = s.network().ip();
  const runtime::v1::NamespaceOption& ns = s.linux().namespaces().options();
  m.host_network = ns.network() == runtime::v1::NODE;
  m.host_pid = ns.pid() == runtime::v1::NODE;
  m.host_ipc = ns.ipc() == runtime::v1::NODE;
  if (s.created_at() > 0) m.start_ns = static_cast<uint64_t>(s.created_at());
  return m;
}

}  // namespace kestrel::agent::containers
