// Where the running program is, for what it reads beside itself: from its
// build tree the source and build trees' files, from an installed prefix
// (any, the Debian package's /usr too) the files under that prefix.
#ifndef KESTREL_AGENT_MODULES_PROGRAM_LOCATION_H_
#define KESTREL_AGENT_MODULES_PROGRAM_LOCATION_H_

#include <filesystem>

namespace kestrel::agent {

struct ProgramLocation {
  std::filesystem::path exe;  // resolved; empty when /proc/self/exe is unreadable
  bool in_build_tree = false;
  // bin/.. of an installed program.
  std::filesystem::path prefix() const { return exe.parent_path().parent_path(); }
};

ProgramLocation ThisProgram();

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_MODULES_PROGRAM_LOCATION_H_
