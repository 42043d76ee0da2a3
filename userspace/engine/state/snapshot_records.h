// The system at start as records: one SNAPSHOT_THREAD record per thread and
// one SNAPSHOT_FD record per open descriptor of a process, laid out as the
// probe's records are (kestrel_record_header, u16 lengths, parameters), so a
// capture file stores them in its snapshot blocks unchanged, and the same
// RecordView reads them. The thread table is seeded only by consuming these
// records (ThreadTable::Apply), live from MakeProcSnapshot() and from a
// file's snapshot blocks alike, so both build the same table.
//
// Parameters, in order (integers little-endian; strings without their NUL;
// lists are NUL-separated entries):
//   SNAPSHOT_THREAD (header tid/tgid: the thread and its process):
//     0 tid u32, 1 pid u32, 2 ppid u32, 3 vtid u32, 4 vpid u32, 5 sid u32,
//     6 pgid u32, 7 tty u32, 8 comm, 9 exe, 10 exepath, 11 args (list),
//     12 env (list), 13 cwd, 14 root, 15 uid u32, 16 gid u32, 17 euid u32,
//     18 egid u32, 19 loginuid u32, 20 cap_effective u64,
//     21 cap_permitted u64, 22 cap_inheritable u64, 23 cgroup,
//     24 start_ns u64, 25 exe_ino u64, 26 exe_ctime_ns u64,
//     27 exe_mtime_ns u64, 28 exe bits u8 (1 writable, 2 from memfd,
//     4 upper layer, 8 lower layer), 29 cgroups (list of controller=path;
//     cut at 4096 bytes), 30 pidns_init_start_ns u64 (29 and 30 absent
//     from files written before them)
//   SNAPSHOT_FD (header tid: a thread of the process holding the table;
//   tgid: the process):
//     0 pid u32, 1 fd s64, 2 type u8 (FdType), 3 name, 4 nameraw,
//     5 open_flags u32, 6 dev u64, 7 ino u64, 8 family u8, 9 l4proto u8,
//     10 sock_type s32, 11 local family u8, 12 local address, 13 local port
//     u16, 14 remote family u8, 15 remote address, 16 remote port u16,
//     17 socket bits u8 (1 connected, 2 server), 18 overlay layer u8
//     (1 upper, 2 lower; later)
// A reader takes the parameters it knows and ignores any that follow, so a
// later writer may append parameters without a new record type.
#ifndef KESTREL_ENGINE_STATE_SNAPSHOT_RECORDS_H_
#define KESTREL_ENGINE_STATE_SNAPSHOT_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/decode/record_view.h"
#include "fd_info.h"
#include "shared/record_format.h"
#include "thread_info.h"

namespace kestrel::engine {

// Snapshot records back to back, each starting with its header.
class SnapshotRecords {
 public:
  // Appends one thread's record (not its descriptors); `ts_ns` is the
  // snapshot's CLOCK_BOOTTIME.
  void AddThread(const ThreadInfo& thread, uint64_t ts_ns);
  // Appends the record of one descriptor of process `pid`, whose thread
  // `tid` (the one the descriptors were listed with) shares the table.
  void AddFd(uint32_t tid, uint32_t pid, const FdInfo& fd, uint64_t ts_ns);
  // Appends a record already encoded (from a capture file); fails unless it
  // is one whole record.
  absl::Status AddRecord(const kestrel_record_header* record);

  size_t size() const { return count_; }
  // The records, each padded to 8 bytes.
  std::span<const uint8_t> bytes() const { return bytes_; }

  // Calls `visit` on every record, in order.
  void ForEach(const std::function<void(const kestrel_record_header*)>& visit) const;

 private:
  std::vector<uint8_t> bytes_;
  size_t count_ = 0;
};

// Every thread and every descriptor /proc shows now (ForEachProcThread),
// each process's descriptors once, right after its first thread; every
// record is stamped with CLOCK_BOOTTIME at the start of the walk.
SnapshotRecords MakeProcSnapshot(const std::string& proc_root);

bool IsSnapshotRecord(uint16_t type);

// The thread a SNAPSHOT_THREAD record describes (fds left null).
absl::StatusOr<ThreadInfo> DecodeSnapshotThread(const RecordView& record);
// The process id and descriptor a SNAPSHOT_FD record describes.
absl::StatusOr<std::pair<uint32_t, FdInfo>> DecodeSnapshotFd(const RecordView& record);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_SNAPSHOT_RECORDS_H_
