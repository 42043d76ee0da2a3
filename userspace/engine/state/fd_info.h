// What the engine knows about one open descriptor of a process.
#ifndef KESTREL_ENGINE_STATE_FD_INFO_H_
#define KESTREL_ENGINE_STATE_FD_INFO_H_

#include <cstdint>
#include <string>

#include "engine/decode/event_decoder.h"

namespace kestrel::engine {

// Falco's descriptor kinds (fd.type prints FdTypeName, fd.typechar
// FdTypeChar).
enum class FdType : uint8_t {
  kUnknown,
  kFile,
  kDirectory,
  kIpv4Socket,
  kIpv6Socket,
  kUnixSocket,
  kNetlinkSocket,
  kPipe,  // also FIFOs
  kEvent,
  kSignalfd,
  kEventpoll,
  kInotify,
  kTimerfd,
  kMemfd,
  kPidfd,
  kBpf,
  kUserfaultfd,
  kIoUring,
};

struct FdInfo {
  int64_t fd = -1;
  FdType type = FdType::kUnknown;
  // Files: the absolute path. Sockets: "cip:cport->sip:sport" as Falco
  // prints it (unix: the path). Others: Falco's name for them
  // ("pipe:[1234]", "anon_inode:[eventfd]").
  std::string name;
  std::string nameraw;      // the path as the caller passed it (fd.nameraw)
  uint32_t open_flags = 0;  // O_* the descriptor was opened with
  // The file's device as stat(2)'s st_dev (makedev encoding), and inode.
  uint64_t dev = 0, ino = 0;
  // Files on an overlayfs (the open's open_facts): upper or lower layer.
  bool overlay_upper = false, overlay_lower = false;

  // Sockets.
  uint8_t family = 0;     // KESTREL_AF_*, 0 when not a socket
  uint8_t l4proto = 0;    // IPPROTO_TCP/UDP/ICMP/RAW ...; 0 = unknown
  int32_t sock_type = 0;  // SOCK_STREAM, SOCK_DGRAM ...
  SocketAddress local, remote;
  bool connected = false;  // connect/accept succeeded
  bool is_server = false;  // listening, or accepted from a listener
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_FD_INFO_H_
