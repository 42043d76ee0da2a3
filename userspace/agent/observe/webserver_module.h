// The seam between the agent and its webserver module. cpp-httplib (and
// through it OpenSSL, whose strings and config it loads when it is loaded)
// lives in kestrel_webserver.so, which the agent loads with dlopen only
// when the webserver is enabled: a `kestrel capture` holds 2.2 MB less.
// Both sides are built from this tree with the same compiler, so the seam
// passes C++ types; it is not an ABI for anyone else.
#ifndef KESTREL_AGENT_OBSERVE_WEBSERVER_MODULE_H_
#define KESTREL_AGENT_OBSERVE_WEBSERVER_MODULE_H_

#include <cstdint>
#include <string>

#include "agent/observe/webserver.h"

namespace kestrel::agent::observe {

// A listening server, owned by the module.
struct WebserverInstance;

// Bound and listening on return, or nullptr with `error` set to a line
// naming the place (the config key).
using WebserverStartFn = WebserverInstance* (*)(const WebserverOptions& options,
                                                std::string* error);
// Stops the server, joins its threads and frees it.
using WebserverStopFn = void (*)(WebserverInstance* instance);

inline constexpr char kWebserverModuleFile[] = "kestrel_webserver.so";
inline constexpr char kWebserverStartSymbol[] = "kestrel_webserver_start";
inline constexpr char kWebserverStopSymbol[] = "kestrel_webserver_stop";

}  // namespace kestrel::agent::observe

#endif  // KESTREL_AGENT_OBSERVE_WEBSERVER_MODULE_H_
