// MakeCriSource (cri_source.h) on the agent's side: a source that loads
// the CRI module (cri_module.h) the first time it is asked whether the
// runtime answers and a socket is there, and hands everything to the
// client the module makes. Without a socket nothing is loaded: most hosts
// have no CRI runtime, yet the default config names three sockets.
#include <sys/stat.h>

#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/containers/cri/cri_module.h"
#include "agent/containers/cri/cri_source.h"
#include "agent/modules/module_loader.h"

namespace kestrel::agent::containers {
namespace {

using engine::containers::ContainerChange;
using engine::containers::ContainerMetadata;
using engine::containers::RuntimeSource;

class CriSourceLoader : public RuntimeSource {
 public:
  CriSourceLoader(std::string socket, std::chrono::milliseconds timeout)
      : socket_(std::move(socket)), name_(absl::StrCat("CRI ", socket_)), timeout_(timeout) {}

  const std::string& name() const override { return name_; }

  bool Answers(std::chrono::milliseconds timeout) override {
    if (client_ == nullptr) {
      struct stat st {};
      if (stat(socket_.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) return false;
      absl::StatusOr<void*> make = ModuleSymbol(name_, kCriModuleFile, kNewCriSourceSymbol);
      if (!make.ok()) {
        // A runtime is there and cannot be asked: said, never silent.
        std::fprintf(stderr, "kestrel: %s\n", std::string(make.status().message()).c_str());
        return false;
      }
      reinterpret_cast<NewCriSourceFn> (*make)(&socket_, timeout_, &client_);
      if (client_ == nullptr) return false;
    }
    return client_->Answers(timeout);
  }

  absl::StatusOr<ContainerMetadata> Inspect(const std::string& id) override {
    if (client_ == nullptr) return absl::UnavailableError(absl::StrCat(name_, ": not answering"));
    return client_->Inspect(id);
  }

  absl::Status Follow(const std::function<void(ContainerChange, const std::string& id)>& on_change,
                      const std::function<bool()>& stop) override {
    if (client_ == nullptr) return absl::UnavailableError(absl::StrCat(name_, ": not answering"));
    return client_->Follow(on_change, stop);
  }

 private:
  const std::string socket_;
  const std::string name_;
  const std::chrono::milliseconds timeout_;
  std::unique_ptr<RuntimeSource> client_;  // the module's, once loaded
};

}  // namespace

std::unique_ptr<RuntimeSource> MakeCriSource(std::string socket,
                                             std::chrono::milliseconds timeout) {
  return std::make_unique<CriSourceLoader>(std::move(socket), timeout);
}

}  // namespace kestrel::agent::containers
