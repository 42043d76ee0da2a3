// Kestrel's own modules: shared objects the agent loads with dlopen only
// when a feature needs them, so that their libraries (and what those run
// when loaded) stay out of every process that does not use it. Each is
// built from this tree with the same compiler as the program, so a seam may
// pass C++ types; none is an ABI for anyone else.
//
//   kestrel_webserver.so        cpp-httplib (observe/webserver_module.h)
//   kestrel_network_outputs.so  libcurl, librdkafka (outputs/network_channels_module.h)
#ifndef KESTREL_AGENT_MODULES_MODULE_LOADER_H_
#define KESTREL_AGENT_MODULES_MODULE_LOADER_H_

#include <string>

#include "absl/status/statusor.h"

namespace kestrel::agent {

// The address of `symbol` in the module `file`, loaded on first use and
// kept for the life of the process (code that returns into it may still
// run). The module is looked for in the build tree (for a program in it),
// beside the library holding this code (libkestrel.so's lib/kestrel/),
// beside the binary (bin/../LIBDIR/kestrel/, any prefix) and under the
// configured libdir. Errors are one line starting with `what`.
absl::StatusOr<void*> ModuleSymbol(const std::string& what, const std::string& file,
                                   const std::string& symbol);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_MODULES_MODULE_LOADER_H_
