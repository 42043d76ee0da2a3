// A test's Kubernetes kubelet, as far as the e2e tests need one: pods and
// their containers started over the CRI (runtime.v1) on a runtime's gRPC
// socket, the way kubelet's cgroupfs driver lays them out, so that Kestrel
// sees real CRI containers. Pods share the host's network: no CNI needed.
#ifndef KESTREL_TEST_E2E_CRI_CLIENT_H_
#define KESTREL_TEST_E2E_CRI_CLIENT_H_

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kestrel::e2e {

struct CriPodSpec {
  std::string name;
  std::string kube_namespace = "default";
  std::string uid;  // also names the pod's cgroup, see CriCgroupParent
  std::map<std::string, std::string> labels;
  bool privileged = false;  // a privileged container needs a privileged pod
};

// Where kubelet's cgroupfs driver puts a best-effort pod; runc adds the
// container's 64-hex id below it.
std::string CriCgroupParent(const std::string& pod_uid);

struct CriMount {
  std::string host_path;
  std::string container_path;
  bool readonly = false;
};

struct CriContainerSpec {
  std::string name;
  std::string image;  // a name the runtime has, e.g. BusyboxImage()
  std::vector<std::string> command;
  std::vector<std::string> args;
  std::map<std::string, std::string> labels;
  bool privileged = false;
  std::vector<CriMount> mounts;
};

struct CriContainerStatus {
  enum class State { kCreated, kRunning, kExited, kUnknown, kMissing };
  State state = State::kMissing;
  int exit_code = -1;
  int pid = 0;  // of the container's first process, while it runs
  std::string reason;
};

struct CriRun {
  std::string id;  // empty when it could not be started (see error())
  int exit_code = -1;
  std::string out;  // stdout and stderr, from the container's log
};

class CriClient {
 public:
  // `log_root` gets a folder of container logs per pod.
  CriClient(const std::string& socket, std::string log_root);
  ~CriClient();
  CriClient(const CriClient&) = delete;
  CriClient& operator=(const CriClient&) = delete;

  // "containerd 1.6.20~ds1" or the like; empty when the CRI does not answer
  // within `deadline`.
  std::string Version(std::chrono::milliseconds deadline = std::chrono::seconds(2));

  // Each returns the new id, or empty with error() set.
  std::string RunPod(const CriPodSpec& spec);
  std::string CreateContainer(const std::string& pod_id, const CriContainerSpec& spec);
  // Created and started; left running.
  std::string StartContainer(const std::string& pod_id, const CriContainerSpec& spec);

  bool StartContainer(const std::string& container_id);
  CriContainerStatus Status(const std::string& container_id);
  // Polls until the container has exited; false when it still runs after
  // `timeout`.
  bool WaitExited(const std::string& container_id, std::chrono::milliseconds timeout,
                  CriContainerStatus* status = nullptr);
  // What the container wrote so far, without the CRI log's line prefixes.
  std::string Output(const std::string& container_id);
  // Started and waited for; the container stays until its pod is removed.
  CriRun Run(const std::string& pod_id, const CriContainerSpec& spec,
             std::chrono::milliseconds timeout = std::chrono::seconds(10));

  bool StopContainer(const std::string& container_id, int timeout_s = 0);
  bool RemoveContainer(const std::string& container_id);
  // Stopping a pod kills its containers; removing it removes them.
  bool StopPod(const std::string& pod_id);
  bool RemovePod(const std::string& pod_id);
  // Stops and removes every pod RunPod made and still has; true when all went.
  bool RemoveAllPods();

  // The pods RunPod made and RemovePod has not removed, with their uids.
  const std::map<std::string, std::string>& pod_uids() const { return pod_uids_; }
  // The uid of every pod RunPod made, removed or not: their cgroups stay
  // behind, as kubelet would remove them.
  const std::set<std::string>& uids_used() const { return uids_used_; }
  const std::string& error() const { return error_; }

 private:
  struct Stub;
  std::unique_ptr<Stub> stub_;
  std::string log_root_;
  std::map<std::string, std::string> pod_uids_;
  std::set<std::string> uids_used_;
  std::map<std::string, std::string> container_logs_;  // container id -> log file
  std::string error_;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_CRI_CLIENT_H_
