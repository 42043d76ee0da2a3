// Threads of the traced system (tid -> process, parent, name, exe), seeded
// once from /proc and then kept current only from the kernel's records, so
// an event is named as its thread was called when the syscall happened, not
// when the line is printed.
//
// The records that keep it current (StateSyscalls()):
//  - clone/clone3/fork/vfork: the caller's record is written before the
//    child runs (process_events.h), so the child inherits the caller's entry
//    before any record of its own arrives;
//  - execve/execveat: the comm and exe the record carries;
//  - prctl(PR_SET_NAME): the name the record carries;
//  - the records state_updates.h lists: credentials, cwd/root, capabilities,
//    session and group, and the process's descriptors (fd_table.h);
//  - PROCESS_EXIT: the entry goes after a grace period (record time), so
//    records still in flight from other CPUs resolve;
//  - every record header: the thread's current process id.
// Not seen: a rename written to /proc/PID/comm (no syscall record carries
// it), and pids of a clone made inside another pid namespace (the record's
// child ids are that namespace's).
#ifndef KESTREL_ENGINE_STATE_THREAD_TABLE_H_
#define KESTREL_ENGINE_STATE_THREAD_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "snapshot_records.h"
#include "state_updates.h"
#include "thread_info.h"

namespace kestrel::engine {

struct ThreadTableOptions {
  // Past this many entries, inserting evicts exited threads first (oldest
  // exit first), then an arbitrary live one.
  size_t max_entries = 65536;
  // How long (in record time) an exited thread stays resolvable.
  uint64_t exit_grace_ns = 2'000'000'000;
  std::string proc_root = "/proc";
  // Read /proc for a thread no record and no seed described (one that
  // predates the capture but was missed by the seed). Off, such a thread
  // has no entry.
  bool proc_fallback = true;
  // Wall-clock ns at boot, turning a record's time into a process's start
  // (proc.duration of a process cloned under the probe); 0: not known, and
  // such starts stay unknown.
  uint64_t boot_time_ns = 0;
};

class ThreadTable {
 public:
  explicit ThreadTable(ThreadTableOptions options = {});

  // Adds every thread /proc shows now: MakeProcSnapshot(), then
  // ApplySnapshot(). Call once, after the probe is attached, so no thread
  // falls between the seed and the first record.
  void SeedFromProc();

  // Seeds the table from snapshot records (snapshot_records.h): the one way
  // the system at start enters it, from /proc or from a capture file.
  void ApplySnapshot(const SnapshotRecords& snapshot);

  // The table as snapshot records stamped `ts_ns`: every thread (exited
  // ones in their grace period too), each process's leader first, then each
  // descriptor table once. What a capture file started mid-run (a rotated
  // one, an alert's capture) begins with, so a reader of that file alone
  // builds this table. table_snapshot.cpp.
  SnapshotRecords Snapshot(uint64_t ts_ns) const;

  // Adds or replaces one entry (the seed's way in; tests use it too).
  void Insert(ThreadInfo info);

  // Updates the table from one record; records that carry no thread state
  // change nothing. A record that does not decode is ignored. Snapshot
  // records seed the entry (or descriptor) they describe.
  void Apply(const RecordView& record);
  void ApplyEvent(const DecodedEvent& event);
  void ApplyGeneric(const kestrel_record_header& header, const GenericSyscall& syscall);

  // The entry of `tid`, or nullptr. Never reads /proc.
  const ThreadInfo* Find(uint32_t tid) const;

  // The n-th ancestor of `thread` by parent process id (0: the thread
  // itself, 1: its parent's process ...), as Falco's proc.aname[n] walks;
  // nullptr past the oldest known one. Never reads /proc.
  const ThreadInfo* Ancestor(const ThreadInfo& thread, int n) const;

  // Find(tid), or for a thread the table never heard of, what /proc says of
  // it (remembered, so /proc is read once per such thread). A thread /proc
  // no longer shows is remembered with an empty comm. nullptr only when the
  // fallback is off.
  const ThreadInfo* Resolve(uint32_t tgid, uint32_t tid);

  // Whether applying the record with header `h` changed the name of a
  // descriptor that existed before it (a UDP socket connected elsewhere, a
  // bind naming a unix socket): Falco's fd.name_changed. False for any
  // record but the last one applied.
  bool FdNameChangedBy(const kestrel_record_header& h) const;

  size_t size() const { return threads_.size(); }
  // Live or grace-period entries pushed out because the table was full.
  uint64_t evictions() const { return evictions_; }
  // Threads resolved from /proc after the seed.
  uint64_t proc_fallbacks() const { return proc_fallbacks_; }

 private:
  // OtherThreads for the updates, without /proc reads.
  class Others : public OtherThreads {
   public:
    explicit Others(ThreadTable& table) : table_(table) {}
    ThreadInfo* FindThread(uint32_t tid) override;

   private:
    ThreadTable& table_;
  };

  ThreadInfo& Upsert(uint32_t tid);
  void ApplySnapshotRecord(const RecordView& record);
  // Gives `t` its process's descriptor table (the leader's, when known),
  // creating one for a process that has none.
  void ShareFds(ThreadInfo& t);
  // After a clone: a child without CLONE_FILES gets a copy of the caller's
  // descriptors, one with it shares them.
  void InheritFds(const kestrel_record_header& h, const DecodedEvent& event);
  ThreadInfo* Lookup(uint32_t tgid, uint32_t tid);  // Resolve, writable
  // Lookup(ppid) when the table lacks a parent process: may move entries.
  void ResolveParent(uint32_t ppid, uint32_t tgid);
  void Advance(uint64_t ts_ns);  // drops exited threads past their grace
  void MarkExited(ThreadInfo& t, uint64_t ts_ns);
  // Every removal goes through here: it may drop the entry last_found_ holds.
  using Threads = absl::flat_hash_map<uint32_t, ThreadInfo>;
  void Erase(Threads::iterator it);
  void EvictOne();
  void ApplyClone(const kestrel_record_header& h, const DecodedEvent& event);
  void ApplyExec(const kestrel_record_header& h, const DecodedEvent& event);

  // The last entry found: a record's thread is looked up by its state
  // update and again by its fields. Adding or removing any entry may move
  // or drop it, and forgets it; so does copying the table.
  class LastFound {
   public:
    LastFound() = default;
    LastFound(const LastFound&) {}
    LastFound& operator=(const LastFound& other) {
      if (this != &other) Forget();
      return *this;
    }
    const ThreadInfo* Get(uint32_t tid) const { return tid_ == tid ? entry_ : nullptr; }
    void Set(uint32_t tid, const ThreadInfo* entry) {
      tid_ = tid;
      entry_ = entry;
    }
    void Forget() { entry_ = nullptr; }

   private:
    uint32_t tid_ = 0;
    const ThreadInfo* entry_ = nullptr;
  };

  ThreadTableOptions options_;
  Threads threads_;
  mutable LastFound last_found_;
  // (tid, exit_ts_ns) by exit time; an entry is stale once its thread was
  // replaced (a reused tid) or already removed.
  std::deque<std::pair<uint32_t, uint64_t>> exits_;
  uint64_t now_ns_ = 0;  // newest record time seen
  uint64_t evictions_ = 0;
  uint64_t proc_fallbacks_ = 0;
  // FdNameChangedBy's record (the last one applied that named a known
  // descriptor), the descriptor, and the name it had before. Whether the
  // name changed is only worked out when asked: few rules ask.
  bool fd_name_tracked_ = false;
  uint64_t fd_name_changed_ts_ = 0;
  uint32_t fd_name_changed_tid_ = 0;
  int64_t fd_name_changed_fd_ = -1;
  std::string fd_name_before_;
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_THREAD_TABLE_H_
