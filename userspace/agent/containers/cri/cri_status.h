// The CRI's answers about a container (ContainerStatus) and a pod sandbox
// (PodSandboxStatus), asked verbose, read into ContainerMetadata. What the
// status messages leave out (privileged, the command, the user, the host
// namespaces, the pod's sandbox) comes from the "info" document the
// runtime adds: containerd's and CRI-O's both carry the OCI runtime spec
// and the sandbox's id.
#ifndef KESTREL_AGENT_CONTAINERS_CRI_CRI_STATUS_H_
#define KESTREL_AGENT_CONTAINERS_CRI_CRI_STATUS_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "cri/cri_api.pb.h"
#include "engine/containers/container_metadata.h"

namespace kestrel::agent::containers {

using engine::containers::ContainerMetadata;

// An answer without an id is an error; an info document that is missing or
// not JSON leaves what it would fill at its default.
absl::StatusOr<ContainerMetadata> FromCriContainerStatus(
    const runtime::v1::ContainerStatusResponse& answer);
absl::StatusOr<ContainerMetadata> FromCriPodSandboxStatus(
    const runtime::v1::PodSandboxStatusResponse& answer);

// What the "info" document says, into `m`: pod_sandbox_id, privileged,
// cmdline, user, host_network/pid/ipc. Never throws; a document that is
// not JSON changes nothing.
void ApplyCriInfo(std::string_view info, ContainerMetadata& m);

}  // namespace kestrel::agent::containers

#endif  // KESTREL_AGENT_CONTAINERS_CRI_CRI_STATUS_H_
