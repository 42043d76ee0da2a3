#include "agent/config/default_rules.h"

#include <climits>
#include <cstdlib>
#include <filesystem>

namespace kestrel::agent {

std::string DefaultRulesDir() {
  char exe[PATH_MAX];
  if (realpath("/proc/self/exe", exe) != nullptr) {
    const std::string path = exe;
    const std::string build = KESTREL_BUILD_DIR "/";
    if (path.starts_with(build)) return KESTREL_SOURCE_RULES_DIR;
    // A tree installed under another prefix than the build's (the Debian
    // package's /usr): the rules beside the binary, bin/../share.
    std::error_code ec;
    const std::filesystem::path beside =
        std::filesystem::path(path).parent_path().parent_path() / "share/kestrel/rules";
    if (!std::filesystem::exists(KESTREL_INSTALLED_RULES_DIR, ec) &&
        std::filesystem::exists(beside, ec)) {
      return beside.string();
    }
  }
  return KESTREL_INSTALLED_RULES_DIR;
}

}  // namespace kestrel::agent
