// The seam between the agent and its CRI module. gRPC and protobuf (some
// 3.5 MB of libraries mapped, relocated and initialised at start) live in
// kestrel_cri.so with the CRI client and the generated runtime.v1 code,
// which MakeCriSource (cri_source.h) loads only once a CRI socket is there
// to ask. Protobuf registers the generated messages once per process: a
// program that links the generated code itself must not load the module.
#ifndef KESTREL_AGENT_CONTAINERS_CRI_CRI_MODULE_H_
#define KESTREL_AGENT_CONTAINERS_CRI_CRI_MODULE_H_

#include <chrono>
#include <memory>
#include <string>

#include "engine/containers/runtime_source.h"

namespace kestrel::agent::containers {

using NewCriSourceFn = void (*)(const std::string* socket, std::chrono::milliseconds timeout,
                                std::unique_ptr<engine::containers::RuntimeSource>* out);

inline constexpr char kCriModuleFile[] = "kestrel_cri.so";
inline constexpr char kNewCriSourceSymbol[] = "kestrel_new_cri_source";

// Inside the module (cri_source.cpp): the gRPC client the entry point makes.
std::unique_ptr<engine::containers::RuntimeSource> NewCriSource(std::string socket,
                                                                std::chrono::milliseconds timeout);

}  // namespace kestrel::agent::containers

#endif  // KESTREL_AGENT_CONTAINERS_CRI_CRI_MODULE_H_
