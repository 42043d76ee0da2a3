#include "agent/modules/module_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/modules/program_location.h"
#include "agent/quote.h"

namespace kestrel::agent {
namespace {

// Where `file` may be, best first.
std::vector<std::filesystem::path> Candidates(const std::string& file) {
  std::vector<std::filesystem::path> out;
  const ProgramLocation program = ThisProgram();
  if (program.in_build_tree) out.push_back(std::filesystem::path(KESTREL_BUILD_MODULE_DIR) / file);
  // Inside libkestrel.so, the library's directory; inside a program, the
  // program's, which the next candidate covers.
  Dl_info self{};
  char holder[PATH_MAX];
  if (dladdr(reinterpret_cast<void*>(&Candidates), &self) != 0 && self.dli_fname != nullptr &&
      realpath(self.dli_fname, holder) != nullptr && program.exe != holder) {
    out.push_back(std::filesystem::path(holder).parent_path() / "kestrel" / file);
  }
  if (!program.exe.empty()) {
    out.push_back(program.prefix() / KESTREL_INSTALL_LIBDIR / "kestrel" / file);
  }
  out.push_back(std::filesystem::path(KESTREL_INSTALL_FULL_LIBDIR) / "kestrel" / file);
  return out;
}

absl::StatusOr<void*> Open(const std::string& what, const std::string& file) {
  std::vector<std::string> tried;
  for (const std::filesystem::path& path : Candidates(file)) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried.push_back(Quote(path.string()));
      continue;
    }
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat(what, ": cannot load ", Quote(path.string()), ": ", dlerror()));
    }
    return handle;
  }
  return absl::FailedPreconditionError(
      absl::StrCat(what, ": ", file, " not found (looked at ", absl::StrJoin(tried, ", "), ")"));
}

}  // namespace

absl::StatusOr<void*> ModuleSymbol(const std::string& what, const std::string& file,
                                   const std::string& symbol) {
  static std::mutex mu;
  static std::map<std::string, void*> loaded;
  const std::lock_guard<std::mutex> lock(mu);
  auto it = loaded.find(file);
  if (it == loaded.end()) {
    absl::StatusOr<void*> handle = Open(what, file);
    if (!handle.ok()) return handle.status();
    it = loaded.emplace(file, *handle).first;
  }
  void* address = dlsym(it->second, symbol.c_str());
  if (address == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": ", file, " is not Kestrel's ", what, " module (no ", symbol, ")"));
  }
  return address;
}

}  // namespace kestrel::agent
