// What a container runtime says about one container: Falco's container.*
// fields, as its container plugin fills them. Filled off the event path
// (metadata_cache.h) and read by the fields layer.
#ifndef KESTREL_ENGINE_CONTAINERS_CONTAINER_METADATA_H_
#define KESTREL_ENGINE_CONTAINERS_CONTAINER_METADATA_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kestrel::engine::containers {

struct ContainerMount {
  std::string source;
  std::string dest;
  std::string mode;
  bool rw = true;
  std::string propagation;
};

struct ContainerMetadata {
  std::string id;                // the runtime's 64 hex digits
  std::string name;              // without Docker's leading '/'
  std::string image;             // as the container was created from: "nginx:1.25"
  std::string image_repository;  // "nginx", "docker.io/library/nginx", "localhost/app"
  std::string image_tag;         // "1.25"; "latest" when the reference names no tag nor digest
  std::string image_digest;      // "sha256:..." when the reference pins one, else empty
  std::string image_id;          // the image's id without "sha256:": 64 hex digits, as Falco's
  std::vector<std::pair<std::string, std::string>> labels;  // sorted by key
  bool privileged = false;
  std::vector<ContainerMount> mounts;
  bool host_network = false;
  bool host_pid = false;
  bool host_ipc = false;
  std::string user;         // Config.User: "", "1000", "app:app"
  std::string ip;           // the first network's address, else empty
  std::string cmdline;      // the argv the runtime started (entrypoint, command), space-separated
  uint64_t start_ns = 0;    // State.StartedAt, ns since the epoch; 0 when not known
  std::string healthcheck;  // the health check's command, space-separated; empty: none
  // The runtime that answered, as its CRI names itself ("containerd",
  // "cri-o"); empty from Docker's API, whose cgroup paths name the runtime.
  std::string runtime;
  // A Kubernetes pod's: the id of its sandbox (the pod's labels and address
  // are the sandbox's), and whether this is the sandbox itself.
  std::string pod_sandbox_id;
  bool is_pod_sandbox = false;
};

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_CONTAINER_METADATA_H_
