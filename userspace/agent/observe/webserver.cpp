#include "agent/observe/webserver.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <filesystem>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/config/program_location.h"
#include "agent/observe/webserver_module.h"
#include "agent/quote.h"

namespace kestrel::agent::observe {
namespace {

struct ModuleEntryPoints {
  WebserverStartFn start = nullptr;
  WebserverStopFn stop = nullptr;
};

// Where kestrel_webserver.so may be, best first: the build tree's for a
// program in it; beside the library holding this code (libkestrel.so's
// lib/kestrel/); beside the binary (bin/../lib/kestrel/, any prefix); the
// configured install path.
std::vector<std::filesystem::path> ModuleCandidates() {
  std::vector<std::filesystem::path> out;
  const ProgramLocation program = ThisProgram();
  if (program.in_build_tree) out.emplace_back(KESTREL_WEBSERVER_MODULE_BUILD_PATH);
  // Inside libkestrel.so, the library's directory; inside a program, the
  // program's, which the next candidate covers.
  Dl_info self{};
  char holder[PATH_MAX];
  if (dladdr(reinterpret_cast<void*>(&ModuleCandidates), &self) != 0 && self.dli_fname != nullptr &&
      realpath(self.dli_fname, holder) != nullptr && program.exe != holder) {
    out.push_back(std::filesystem::path(holder).parent_path() / "kestrel" / kWebserverModuleFile);
  }
  if (!program.exe.empty()) {
    out.push_back(program.prefix() / KESTREL_INSTALL_LIBDIR / "kestrel" / kWebserverModuleFile);
  }
  out.push_back(std::filesystem::path(KESTREL_INSTALL_FULL_LIBDIR) / "kestrel" /
                kWebserverModuleFile);
  return out;
}

// Loaded once and kept: its threads are gone when a server stops, but a
// module is never unloaded under code that may still return into it.
absl::StatusOr<ModuleEntryPoints> LoadModule() {
  static std::mutex mu;
  static ModuleEntryPoints loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (loaded.start != nullptr) return loaded;
  std::vector<std::string> tried;
  for (const std::filesystem::path& path : ModuleCandidates()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried.push_back(Quote(path.string()));
      continue;
    }
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("webserver: cannot load ", Quote(path.string()), ": ", dlerror()));
    }
    auto start = reinterpret_cast<WebserverStartFn>(dlsym(handle, kWebserverStartSymbol));
    auto stop = reinterpret_cast<WebserverStopFn>(dlsym(handle, kWebserverStopSymbol));
    if (start == nullptr || stop == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("webserver: ", Quote(path.string()), " is not Kestrel's webserver module"));
    }
    loaded = {start, stop};
    return loaded;
  }
  return absl::FailedPreconditionError(absl::StrCat("webserver: ", kWebserverModuleFile,
                                                    " not found (looked at ",
                                                    absl::StrJoin(tried, ", "), ")"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Webserver>> Webserver::Start(WebserverOptions options) {
  absl::StatusOr<ModuleEntryPoints> module = LoadModule();
  if (!module.ok()) return module.status();
  std::string error;
  WebserverInstance* instance = module->start(options, &error);
  if (instance == nullptr) return absl::InvalidArgumentError(error);
  std::unique_ptr<Webserver> web(new Webserver());
  web->instance_ = instance;
  web->stop_ = module->stop;
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
