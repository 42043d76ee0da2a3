#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/containers/docker_api_source.h"
#include "agent/containers/runtime_client.h"
#include "engine/containers/docker_events.h"
#include "engine/containers/docker_inspect.h"
#include "engine/containers/runtime_source.h"

namespace kestrel::agent::containers {

// The runtimes' answers become the engine's container metadata.
using namespace ::kestrel::engine::containers;  // NOLINT(google-build-using-namespace)

namespace {

class DockerApiSource : public RuntimeSource {
 public:
  DockerApiSource(std::string socket, std::chrono::milliseconds timeout)
      : socket_(std::move(socket)),
        name_(absl::StrCat("docker API ", socket_)),
        timeout_(timeout) {}

  const std::string& name() const override { return name_; }

  bool Answers(std::chrono::milliseconds timeout) override {
    return RuntimeAnswers(socket_, timeout);
  }

  absl::StatusOr<ContainerMetadata> Inspect(const std::string& id) override {
    absl::StatusOr<std::string> body = RuntimeGet(socket_, "/containers/" + id + "/json", timeout_);
    if (!body.ok()) return body.status();
    return ParseDockerInspect(*body);
  }

  absl::Status Follow(const std::function<void(ContainerChange, const std::string& id)>& on_change,
                      const std::function<bool()>& stop) override {
    const auto on_line = [&on_change](std::string_view line) {
      const std::optional<ContainerEvent> e = ParseDockerEvent(line);
      if (!e) return;
      // Podman says "remove" where Docker says "destroy".
      if (e->action == "create" || e->action == "start") {
        on_change(ContainerChange::kCreated, e->id);
      } else if (e->action == "destroy" || e->action == "remove") {
        on_change(ContainerChange::kRemoved, e->id);
      }
    };
    return RuntimeFollow(socket_, kContainerEventsPath, on_line, stop);
  }

 private:
  const std::string socket_;
  const std::string name_;
  const std::chrono::milliseconds timeout_;
};

}  // namespace

std::unique_ptr<RuntimeSource> MakeDockerApiSource(std::string socket,
                                                   std::chrono::milliseconds timeout) {
  return std::make_unique<DockerApiSource>(std::move(socket), timeout);
}

}  // namespace kestrel::agent::containers
