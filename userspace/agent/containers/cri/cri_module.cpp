// kestrel_cri.so's entry point (cri_module.h).
#include "agent/containers/cri/cri_module.h"

extern "C" __attribute__((visibility("default"))) void kestrel_new_cri_source(
    const std::string* socket, std::chrono::milliseconds timeout,
    std::unique_ptr<kestrel::engine::containers::RuntimeSource>* out) {
  *out = kestrel::agent::containers::NewCriSource(*socket, timeout);
}
