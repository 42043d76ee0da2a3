// Sockets as /proc/net/{tcp,tcp6,udp,udp6,unix} list them, by inode: what
// the seed knows of a "socket:[INODE]" descriptor of a process that was
// running before the capture started.
#ifndef KESTREL_ENGINE_STATE_PROC_NET_H_
#define KESTREL_ENGINE_STATE_PROC_NET_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "fd_info.h"

namespace kestrel::engine {

// Socket facts by inode; fd is left -1 (the same socket may be open in many
// processes under different numbers).
using SocketsByInode = absl::flat_hash_map<uint64_t, FdInfo>;

// Adds the rows of one /proc/net/{tcp,tcp6,udp,udp6} table; `family` is
// KESTREL_AF_INET or KESTREL_AF_INET6, `l4proto` IPPROTO_TCP or _UDP.
// Connected TCP sockets whose local port some listening socket of the table
// holds are the server's end (is_server), named client->server.
void ParseInetSockets(std::string_view table, uint8_t family, uint8_t l4proto, SocketsByInode& out);
// Adds the rows of /proc/net/unix.
void ParseUnixSockets(std::string_view table, SocketsByInode& out);

// Every socket the five tables under `proc_root`/net list, each read once.
SocketsByInode ReadProcNetSockets(const std::string& proc_root);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_PROC_NET_H_
