// A process's descriptors as /proc/PID/fd shows them: the seed of its
// FdTable.
#ifndef KESTREL_ENGINE_STATE_PROC_FDS_H_
#define KESTREL_ENGINE_STATE_PROC_FDS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fd_table.h"
#include "proc_net.h"

namespace kestrel::engine {

// One descriptor from its /proc/PID/fd link text ("/path", "socket:[ino]",
// "pipe:[ino]", "anon_inode:[eventfd]" ...). Sockets take what `sockets`
// knows of their inode (nullptr: the kind only).
FdInfo FdFromProcLink(int64_t fd, std::string_view link, const SocketsByInode* sockets);

// Every descriptor of process `tgid`; directories and close-on-exec come
// from stat and fdinfo. An empty table when /proc shows none (a zombie).
std::shared_ptr<FdTable> ReadProcFds(const std::string& proc_root, uint32_t tgid,
                                     const SocketsByInode* sockets);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_PROC_FDS_H_
