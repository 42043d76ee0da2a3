#include "cri_client.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "cri/cri_api.grpc.pb.h"

namespace kestrel::e2e {
namespace {

namespace v1 = runtime::v1;

// Starting a pod unpacks its image on first use: seconds on a busy machine.
constexpr auto kCallDeadline = std::chrono::seconds(30);

std::unique_ptr<grpc::ClientContext> CallContext(
    std::chrono::milliseconds deadline = kCallDeadline) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + deadline);
  return context;
}

// A CRI log line is "<RFC 3339 time> <stream> <P|F> <text>"; P marks a
// line the runtime split, continued by the next one.
std::string LogText(const std::string& log) {
  std::istringstream lines(log);
  std::string text;
  for (std::string line; std::getline(lines, line);) {
    size_t at = 0;
    std::string tag;
    for (int field = 0; field < 3 && at != std::string::npos; ++field) {
      const size_t end = line.find(' ', at);
      if (field == 2) tag = line.substr(at, end - at);
      at = end == std::string::npos ? end : end + 1;
    }
    if (at == std::string::npos) continue;
    text += line.substr(at);
    if (tag != "P") text += '\n';
  }
  return text;
}

// The first process's pid, from containerd's verbose status ("info" holds
// JSON with a "pid" member).
int PidFromInfo(const google::protobuf::Map<std::string, std::string>& info) {
  const auto it = info.find("info");
  if (it == info.end()) return 0;
  const size_t at = it->second.find("\"pid\":");
  return at == std::string::npos ? 0 : std::atoi(it->second.c_str() + at + 6);
}

}  // namespace

struct CriClient::Stub {
  std::unique_ptr<v1::RuntimeService::Stub> runtime;
  // CreateContainer repeats the pod's config.
  std::map<std::string, v1::PodSandboxConfig> pod_configs;
};

std::string CriCgroupParent(const std::string& pod_uid) {
  return "/kubepods/besteffort/pod" + pod_uid;
}

CriClient::CriClient(const std::string& socket, std::string log_root)
    : stub_(std::make_unique<Stub>()), log_root_(std::move(log_root)) {
  stub_->runtime = v1::RuntimeService::NewStub(
      grpc::CreateChannel("unix:" + socket, grpc::InsecureChannelCredentials()));
}

CriClient::~CriClient() = default;

std::string CriClient::Version(std::chrono::milliseconds deadline) {
  v1::VersionRequest request;
  request.set_version("v1");
  v1::VersionResponse response;
  const grpc::Status status =
      stub_->runtime->Version(CallContext(deadline).get(), request, &response);
  if (!status.ok()) {
    error_ = absl::StrCat("Version: ", status.error_message());
    return "";
  }
  return absl::StrCat(response.runtime_name(), " ", response.runtime_version());
}

std::string CriClient::RunPod(const CriPodSpec& spec) {
  v1::RunPodSandboxRequest request;
  v1::PodSandboxConfig& config = *request.mutable_config();
  config.mutable_metadata()->set_name(spec.name);
  config.mutable_metadata()->set_namespace_(spec.kube_namespace);
  config.mutable_metadata()->set_uid(spec.uid);
  const std::string logs = absl::StrCat(log_root_, "/", spec.uid);
  std::filesystem::create_directories(logs);
  uids_used_.insert(spec.uid);
  config.set_log_directory(logs);
  for (const auto& [key, value] : spec.labels) (*config.mutable_labels())[key] = value;
  v1::LinuxPodSandboxConfig& pod_linux = *config.mutable_linux();
  pod_linux.set_cgroup_parent(CriCgroupParent(spec.uid));
  // The host's network: a pod network would need CNI plugins and a config.
  pod_linux.mutable_security_context()->mutable_namespace_options()->set_network(v1::NODE);
  pod_linux.mutable_security_context()->set_privileged(spec.privileged);
  v1::RunPodSandboxResponse response;
  const grpc::Status status =
      stub_->runtime->RunPodSandbox(CallContext().get(), request, &response);
  if (!status.ok()) {
    error_ = absl::StrCat("RunPodSandbox: ", status.error_message());
    return "";
  }
  stub_->pod_configs[response.pod_sandbox_id()] = config;
  pod_uids_[response.pod_sandbox_id()] = spec.uid;
  return response.pod_sandbox_id();
}

std::string CriClient::CreateContainer(const std::string& pod_id, const CriContainerSpec& spec) {
  const auto pod = stub_->pod_configs.find(pod_id);
  if (pod == stub_->pod_configs.end()) {
    error_ = "CreateContainer: not a pod of this client: " + pod_id;
    return "";
  }
  v1::CreateContainerRequest request;
  request.set_pod_sandbox_id(pod_id);
  *request.mutable_sandbox_config() = pod->second;
  v1::ContainerConfig& config = *request.mutable_config();
  config.mutable_metadata()->set_name(spec.name);
  config.mutable_image()->set_image(spec.image);
  for (const std::string& c : spec.command) config.add_command(c);
  for (const std::string& a : spec.args) config.add_args(a);
  for (const auto& [key, value] : spec.labels) (*config.mutable_labels())[key] = value;
  for (const CriMount& m : spec.mounts) {
    v1::Mount& mount = *config.add_mounts();
    mount.set_host_path(m.host_path);
    mount.set_container_path(m.container_path);
    mount.set_readonly(m.readonly);
  }
  const std::string log_path = spec.name + ".log";
  config.set_log_path(log_path);
  v1::LinuxContainerSecurityContext& security = *config.mutable_linux()->mutable_security_context();
  security.set_privileged(spec.privileged);
  // As kubelet sets them for a host-network pod: the pod's network, a pid
  // namespace of the container's own.
  security.mutable_namespace_options()->set_network(v1::NODE);
  security.mutable_namespace_options()->set_pid(v1::CONTAINER);
  v1::CreateContainerResponse response;
  const grpc::Status status =
      stub_->runtime->CreateContainer(CallContext().get(), request, &response);
  if (!status.ok()) {
    error_ = absl::StrCat("CreateContainer: ", status.error_message());
    return "";
  }
  container_logs_[response.container_id()] =
      absl::StrCat(pod->second.log_directory(), "/", log_path);
  return response.container_id();
}

bool CriClient::StartContainer(const std::string& container_id) {
  v1::StartContainerRequest request;
  request.set_container_id(container_id);
  v1::StartContainerResponse response;
  const grpc::Status status =
      stub_->runtime->StartContainer(CallContext().get(), request, &response);
  if (!status.ok()) error_ = absl::StrCat("StartContainer: ", status.error_message());
  return status.ok();
}

std::string CriClient::StartContainer(const std::string& pod_id, const CriContainerSpec& spec) {
  const std::string id = CreateContainer(pod_id, spec);
  return !id.empty() && StartContainer(id) ? id : "";
}

CriContainerStatus CriClient::Status(const std::string& container_id) {
  v1::ContainerStatusRequest request;
  request.set_container_id(container_id);
  request.set_verbose(true);
  v1::ContainerStatusResponse response;
  const grpc::Status status =
      stub_->runtime->ContainerStatus(CallContext().get(), request, &response);
  CriContainerStatus result;
  if (!status.ok()) {
    error_ = absl::StrCat("ContainerStatus: ", status.error_message());
    return result;
  }
  switch (response.status().state()) {
    case v1::CONTAINER_CREATED:
      result.state = CriContainerStatus::State::kCreated;
      break;
    case v1::CONTAINER_RUNNING:
      result.state = CriContainerStatus::State::kRunning;
      result.pid = PidFromInfo(response.info());
      break;
    case v1::CONTAINER_EXITED:
      result.state = CriContainerStatus::State::kExited;
      result.exit_code = response.status().exit_code();
      break;
    default:
      result.state = CriContainerStatus::State::kUnknown;
  }
  result.reason = response.status().reason();
  return result;
}

bool CriClient::WaitExited(const std::string& container_id, std::chrono::milliseconds timeout,
                           CriContainerStatus* status) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const CriContainerStatus now = Status(container_id);
    if (status != nullptr) *status = now;
    if (now.state == CriContainerStatus::State::kExited) return true;
    if (now.state == CriContainerStatus::State::kMissing ||
        std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string CriClient::Output(const std::string& container_id) {
  const auto log = container_logs_.find(container_id);
  if (log == container_logs_.end()) return "";
  std::ifstream file(log->second);
  std::stringstream text;
  text << file.rdbuf();
  return LogText(text.str());
}

CriRun CriClient::Run(const std::string& pod_id, const CriContainerSpec& spec,
                      std::chrono::milliseconds timeout) {
  CriRun run;
  run.id = StartContainer(pod_id, spec);
  if (run.id.empty()) return run;
  CriContainerStatus status;
  if (WaitExited(run.id, timeout, &status)) run.exit_code = status.exit_code;
  run.out = Output(run.id);
  return run;
}

bool CriClient::StopContainer(const std::string& container_id, int timeout_s) {
  v1::StopContainerRequest request;
  request.set_container_id(container_id);
  request.set_timeout(timeout_s);
  v1::StopContainerResponse response;
  const grpc::Status status =
      stub_->runtime->StopContainer(CallContext().get(), request, &response);
  if (!status.ok()) error_ = absl::StrCat("StopContainer: ", status.error_message());
  return status.ok();
}

bool CriClient::RemoveContainer(const std::string& container_id) {
  v1::RemoveContainerRequest request;
  request.set_container_id(container_id);
  v1::RemoveContainerResponse response;
  const grpc::Status status =
      stub_->runtime->RemoveContainer(CallContext().get(), request, &response);
  if (!status.ok()) error_ = absl::StrCat("RemoveContainer: ", status.error_message());
  container_logs_.erase(container_id);
  return status.ok();
}

bool CriClient::StopPod(const std::string& pod_id) {
  v1::StopPodSandboxRequest request;
  request.set_pod_sandbox_id(pod_id);
  v1::StopPodSandboxResponse response;
  const grpc::Status status =
      stub_->runtime->StopPodSandbox(CallContext().get(), request, &response);
  if (!status.ok()) error_ = absl::StrCat("StopPodSandbox: ", status.error_message());
  return status.ok();
}

bool CriClient::RemovePod(const std::string& pod_id) {
  v1::RemovePodSandboxRequest request;
  request.set_pod_sandbox_id(pod_id);
  v1::RemovePodSandboxResponse response;
  const grpc::Status status =
      stub_->runtime->RemovePodSandbox(CallContext().get(), request, &response);
  if (!status.ok()) {
    error_ = absl::StrCat("RemovePodSandbox: ", status.error_message());
    return false;
  }
  stub_->pod_configs.erase(pod_id);
  pod_uids_.erase(pod_id);
  return true;
}

bool CriClient::RemoveAllPods() {
  std::vector<std::string> ids;
  for (const auto& [id, uid] : pod_uids_) ids.push_back(id);
  bool all = true;
  for (const std::string& id : ids) all = StopPod(id) && RemovePod(id) && all;
  return all;
}

}  // namespace kestrel::e2e
