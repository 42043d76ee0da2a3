#include "agent/config/default_rules.h"

#include <filesystem>

#include "agent/modules/program_location.h"

namespace kestrel::agent {

std::string DefaultRulesDir() {
  const ProgramLocation program = ThisProgram();
  if (program.in_build_tree) return KESTREL_SOURCE_RULES_DIR;
  if (!program.exe.empty()) {
    // A tree installed under another prefix than the build's (the Debian
    // package's /usr): the rules beside the binary, bin/../share.
    std::error_code ec;
    const std::filesystem::path beside = program.prefix() / "share/kestrel/rules";
    if (!std::filesystem::exists(KESTREL_INSTALLED_RULES_DIR, ec) &&
        std::filesystem::exists(beside, ec)) {
      return beside.string();
    }
  }
  return KESTREL_INSTALLED_RULES_DIR;
}

}  // namespace kestrel::agent
