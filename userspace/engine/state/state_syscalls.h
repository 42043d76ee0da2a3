// The syscalls whose records keep the engine's state current. A capture that
// shows process names must select them even when the user did not ask for
// them (and then not show them).
#ifndef KESTREL_ENGINE_STATE_STATE_SYSCALLS_H_
#define KESTREL_ENGINE_STATE_STATE_SYSCALLS_H_

#include <cstdint>
#include <vector>

namespace kestrel::engine {

// Ids of the syscalls that create, rename and end threads: the clone
// family, the exec family, prctl (PR_SET_NAME) and exit/exit_group
// (selecting either is what makes PROCESS_EXIT records flow), by
// increasing id. Enough to keep each thread's ids, comm, exe and lineage
// current.
const std::vector<uint32_t>& ProcessIdentitySyscalls();

// ProcessIdentitySyscalls() and every syscall whose event has a
// StateUpdate (credentials, cwd/root, caps, session, descriptors), by
// increasing id.
const std::vector<uint32_t>& StateSyscalls();

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_STATE_SYSCALLS_H_
