// Falco's spellings of values the fields print: descriptor kinds,
// capabilities, protocols and event categories.
#ifndef KESTREL_ENGINE_FIELDS_VALUE_NAMES_H_
#define KESTREL_ENGINE_FIELDS_VALUE_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/state/fd_info.h"

namespace kestrel::engine::fields {

std::string_view FdTypeName(FdType type);  // "file", "ipv4" ...
std::string_view FdTypeChar(FdType type);  // "f", "4" ...

// "tcp", "udp", "icmp", "raw"; empty when not known. Falls back on the
// socket type when the protocol was not recorded (0).
std::string_view L4ProtoName(const FdInfo& fd);

// "CAP_CHOWN CAP_KILL ..." for a capability mask, appended to `out`.
void AppendCapabilities(std::string& out, uint64_t mask);

// Falco's evt.category of a syscall; `fd` decides the category of I/O
// (read, write ...) the way Falco's sub-category does: file, net, ipc.
std::string_view EventCategory(std::string_view syscall, const FdInfo* fd);

// How a syscall moves data through a descriptor, as Falco flags its events:
// reads and writes (evt.is_io_*), and whether it is one of Falco's I/O
// events proper (evt.buflen's), copy_file_range and finit_module not.
struct SyscallIo {
  bool reads = false;
  bool writes = false;
  bool io_event = false;
};
SyscallIo IoOf(std::string_view syscall);

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_VALUE_NAMES_H_
