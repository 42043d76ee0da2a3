#include "agent/containers/cri/cri_module.h"

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/containers/cri/cri_status.h"
#include "agent/containers/runtime_client.h"
#include "cri/cri_api.grpc.pb.h"

namespace kestrel::agent::containers {

// The runtimes' answers become the engine's container metadata.
using namespace ::kestrel::engine::containers;  // NOLINT(google-build-using-namespace)

namespace {

absl::Status FromGrpc(const grpc::Status& s, const std::string& what) {
  if (s.ok()) return absl::OkStatus();
  const std::string message = absl::StrCat(what, ": ", s.error_message());
  switch (s.error_code()) {
    case grpc::StatusCode::NOT_FOUND:
      return absl::NotFoundError(message);
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return absl::UnavailableError(message);
    case grpc::StatusCode::UNIMPLEMENTED:
      return absl::UnimplementedError(message);
    default:
      return absl::InternalError(message);
  }
}

class CriSource : public RuntimeSource {
 public:
  CriSource(std::string socket, std::chrono::milliseconds timeout)
      : socket_(std::move(socket)), name_(absl::StrCat("CRI ", socket_)), timeout_(timeout) {
    grpc::ChannelArguments args;
    // An answer is a few kB; a runtime that floods is cut.
    args.SetMaxReceiveMessageSize(static_cast<int>(kMaxRuntimeAnswerBytes));
    stub_ = runtime::v1::RuntimeService::NewStub(
        grpc::CreateCustomChannel("unix:" + socket_, grpc::InsecureChannelCredentials(), args));
  }

  const std::string& name() const override { return name_; }

  bool Answers(std::chrono::milliseconds timeout) override {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + timeout);
    runtime::v1::VersionResponse answer;
    if (!stub_->Version(&ctx, runtime::v1::VersionRequest(), &answer).ok()) return false;
    const std::lock_guard<std::mutex> lock(mu_);
    runtime_name_ = answer.runtime_name();
    return true;
  }

  absl::StatusOr<ContainerMetadata> Inspect(const std::string& id) override {
    runtime::v1::ContainerStatusRequest container;
    container.set_container_id(id);
    container.set_verbose(true);
    runtime::v1::ContainerStatusResponse container_answer;
    absl::Status s =
        Call(&runtime::v1::RuntimeService::Stub::ContainerStatus, container, container_answer, id);
    if (s.ok()) return WithRuntime(FromCriContainerStatus(container_answer));
    if (!absl::IsNotFound(s)) return s;
    // Not a container: the pod's sandbox, which holds the pod's labels.
    runtime::v1::PodSandboxStatusRequest sandbox;
    sandbox.set_pod_sandbox_id(id);
    sandbox.set_verbose(true);
    runtime::v1::PodSandboxStatusResponse sandbox_answer;
    s = Call(&runtime::v1::RuntimeService::Stub::PodSandboxStatus, sandbox, sandbox_answer, id);
    if (!s.ok()) return s;
    return WithRuntime(FromCriPodSandboxStatus(sandbox_answer));
  }

  absl::Status Follow(const std::function<void(ContainerChange, const std::string& id)>& on_change,
                      const std::function<bool()>& stop) override {
    grpc::ClientContext ctx;
    // A blocking Read cannot ask `stop`: a watcher cancels the stream.
    std::atomic<bool> done{false};
    std::thread watcher([&] {
      while (!done.load() && !stop()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
      ctx.TryCancel();
    });
    std::unique_ptr<grpc::ClientReader<runtime::v1::ContainerEventResponse>> stream =
        stub_->GetContainerEvents(&ctx, runtime::v1::GetEventsRequest());
    runtime::v1::ContainerEventResponse event;
    while (stream->Read(&event)) {
      switch (event.container_event_type()) {
        case runtime::v1::CONTAINER_CREATED_EVENT:
        case runtime::v1::CONTAINER_STARTED_EVENT:
          on_change(ContainerChange::kCreated, event.container_id());
          break;
        case runtime::v1::CONTAINER_DELETED_EVENT:
          on_change(ContainerChange::kRemoved, event.container_id());
          break;
        default:
          break;
      }
    }
    const grpc::Status s = stream->Finish();
    done = true;
    watcher.join();
    return FromGrpc(s, name_);
  }

 private:
  // One unary call, bounded by the timeout.
  template <typename Request, typename Response>
  absl::Status Call(grpc::Status (runtime::v1::RuntimeService::Stub::*method)(grpc::ClientContext*,
                                                                              const Request&,
                                                                              Response*),
                    const Request& request, Response& response, const std::string& id) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + timeout_);
    return FromGrpc(((*stub_).*method)(&ctx, request, &response), absl::StrCat(name_, ": ", id));
  }

  absl::StatusOr<ContainerMetadata> WithRuntime(absl::StatusOr<ContainerMetadata> m) {
    const std::lock_guard<std::mutex> lock(mu_);
    if (m.ok()) m->runtime = runtime_name_;
    return m;
  }

  const std::string socket_;
  const std::string name_;
  const std::chrono::milliseconds timeout_;
  std::unique_ptr<runtime::v1::RuntimeService::Stub> stub_;
  std::mutex mu_;
  std::string runtime_name_;  // from Version: "containerd", "cri-o"
};

}  // namespace

std::unique_ptr<RuntimeSource> NewCriSource(std::string socket, std::chrono::milliseconds timeout) {
  return std::make_unique<CriSource>(std::move(socket), timeout);
}

}  // namespace kestrel::agent::containers
