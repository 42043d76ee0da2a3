#include "agent/modules/program_location.h"

#include <climits>
#include <cstdlib>
#include <string_view>

namespace kestrel::agent {

ProgramLocation ThisProgram() {
  ProgramLocation program;
  char exe[PATH_MAX];
  if (realpath("/proc/self/exe", exe) == nullptr) return program;
  program.exe = exe;
  program.in_build_tree = std::string_view(exe).starts_with(KESTREL_BUILD_DIR "/");
  return program;
}

}  // namespace kestrel::agent
