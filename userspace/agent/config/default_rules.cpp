#include "agent/config/default_rules.h"

#include <climits>
#include <cstdlib>

namespace kestrel::agent {

std::string DefaultRulesDir() {
  char exe[PATH_MAX];
  if (realpath("/proc/self/exe", exe) != nullptr) {
    const std::string path = exe;
    const std::string build = KESTREL_BUILD_DIR "/";
    if (path.starts_with(build)) return KESTREL_SOURCE_RULES_DIR;
  }
  return KESTREL_INSTALLED_RULES_DIR;
}

}  // namespace kestrel::agent
