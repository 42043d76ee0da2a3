// Threads as /proc describes them now: the seed of the ThreadTable, and its
// fallback for threads that predate the capture and were missed by the seed.
#ifndef KESTREL_ENGINE_STATE_PROC_READER_H_
#define KESTREL_ENGINE_STATE_PROC_READER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "thread_info.h"

namespace kestrel::engine {

// Thread `tid` of process `tgid` under `proc_root`, or nullopt once it is
// gone: every ThreadInfo field /proc gives (status, stat, cmdline, environ,
// the exe/cwd/root links, loginuid, the cgroup v2 path, each controller's
// cgroup) and the process's descriptors (sockets without their tuple: that
// takes /proc/net). Fields /proc no longer shows (the exe of a zombie) stay
// empty.
std::optional<ThreadInfo> ReadProcThread(const std::string& proc_root, uint32_t tgid, uint32_t tid);

// Calls `visit` for every thread of every process under `proc_root`;
// threads that exit while it runs are skipped. Each process is read once
// (threads share its facts and one FdTable), /proc/net once for all.
void ForEachProcThread(const std::string& proc_root, const std::function<void(ThreadInfo)>& visit);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_PROC_READER_H_
