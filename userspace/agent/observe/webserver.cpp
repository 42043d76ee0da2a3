#include "agent/observe/webserver.h"

#include <string>

#include "agent/modules/module_loader.h"
#include "agent/observe/webserver_module.h"

namespace kestrel::agent::observe {

absl::StatusOr<std::unique_ptr<Webserver>> Webserver::Start(WebserverOptions options) {
  absl::StatusOr<void*> start =
      ModuleSymbol("webserver", kWebserverModuleFile, kWebserverStartSymbol);
  if (!start.ok()) return start.status();
  absl::StatusOr<void*> stop =
      ModuleSymbol("webserver", kWebserverModuleFile, kWebserverStopSymbol);
  if (!stop.ok()) return stop.status();
  std::string error;
  WebserverInstance* instance = reinterpret_cast<WebserverStartFn>(*start)(options, &error);
  if (instance == nullptr) return absl::InvalidArgumentError(error);
  std::unique_ptr<Webserver> web(new Webserver());
  web->instance_ = instance;
  web->stop_ = reinterpret_cast<WebserverStopFn>(*stop);
  web->port_ = options.port;
  return web;
}

void Webserver::Stop() {
  if (instance_ == nullptr) return;
  stop_(instance_);
  instance_ = nullptr;
}

Webserver::~Webserver() { Stop(); }

}  // namespace kestrel::agent::observe
