#include "thread_table.h"

#include <sched.h>
#include <sys/prctl.h>

#include <cstdint>
#include <optional>

#include "engine/decode/syscall_names.h"
#include "engine/state/container_id.h"
#include "fd_table.h"
#include "proc_reader.h"
#include "shared/event_types.h"

namespace kestrel::engine {
namespace {

bool IsThreadExited(const ThreadInfo& t, uint64_t exit_ts_ns) {
  return t.exited && t.exit_ts_ns == exit_ts_ns;
}

// Records the table itself reads, besides those with a StateUpdate.
bool IsThreadLifeEvent(uint16_t type) {
  switch (type) {
    case KESTREL_EVT_CLONE:
    case KESTREL_EVT_CLONE3:
    case KESTREL_EVT_FORK:
    case KESTREL_EVT_VFORK:
    case KESTREL_EVT_EXECVE:
    case KESTREL_EVT_EXECVEAT:
    case KESTREL_EVT_PRCTL:
    case KESTREL_EVT_PROCESS_EXIT:
      return true;
    default:
      return false;
  }
}

// Past this many generations a parent chain is taken for a loop.
constexpr int kMaxAncestors = 256;
// The cgroup path the container is read from, of a record's `cgroups`
// ("controller=path" entries: the unified path for a controller on cgroup
// v2, the controller's own on a v1 hierarchy).
std::optional<std::string> CgroupPath(const DecodedEvent& event) {
  std::optional<std::vector<std::string>> entries = event.StringList("cgroups");
  if (!entries || entries->empty()) return std::nullopt;
  std::vector<std::string_view> paths;
  for (const std::string& entry : *entries) {
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) paths.push_back(std::string_view(entry).substr(eq + 1));
  }
  if (paths.empty()) return std::nullopt;
  return std::string(state::ContainerCgroupPath(paths));
}

// Every controller's cgroup the record names; a record that names none
// (an older capture's) leaves what the thread had.
void AssignControllerCgroups(const DecodedEvent& event, std::vector<std::string>& cgroups) {
  std::optional<std::vector<std::string>> entries = event.StringList("cgroups");
  if (entries && !entries->empty()) cgroups = *std::move(entries);
}

void SetId(uint32_t& field, std::optional<int64_t> value) {
  if (value && *value > 0) field = static_cast<uint32_t>(*value);
}

void SetUid(uint32_t& field, std::optional<int64_t> value) {
  if (value) field = static_cast<uint32_t>(*value);
}

// pidns_init_start_ts is CLOCK_MONOTONIC: made an epoch time with the boot
// time, as Falco does (time suspended is not counted). The host's
// namespace starts at boot, as Falco says for its processes.
void SetPidnsInitStart(ThreadInfo& t, std::optional<int64_t> monotonic_ns, uint64_t boot_time_ns) {
  if (!monotonic_ns || *monotonic_ns <= 0 || boot_time_ns == 0) return;
  t.pidns_init_start_ns = t.vpid != 0 && t.vpid == t.tgid
                              ? boot_time_ns
                              : static_cast<uint64_t>(*monotonic_ns) + boot_time_ns;
}

}  // namespace

ThreadTable::ThreadTable(ThreadTableOptions options) : options_(std::move(options)) {
  if (options_.max_entries == 0) options_.max_entries = 1;
}

void ThreadTable::SeedFromProc() { ApplySnapshot(MakeProcSnapshot(options_.proc_root)); }

void ThreadTable::ApplySnapshot(const SnapshotRecords& snapshot) {
  snapshot.ForEach([this](const kestrel_record_header* h) {
    if (absl::StatusOr<RecordView> view = RecordView::Parse(h, h->len); view.ok()) {
      ApplySnapshotRecord(*view);
    }
  });
}

void ThreadTable::ApplySnapshotRecord(const RecordView& record) {
  if (record.header().type == KESTREL_EVT_SNAPSHOT_THREAD) {
    absl::StatusOr<ThreadInfo> thread = DecodeSnapshotThread(record);
    if (!thread.ok()) return;
    ThreadInfo& t = Upsert(thread->tid);
    t = *std::move(thread);
    ShareFds(t);
    return;
  }
  absl::StatusOr<std::pair<uint32_t, FdInfo>> fd = DecodeSnapshotFd(record);
  if (!fd.ok()) return;
  // The thread the descriptors were listed with, else any of the process.
  auto it = threads_.find(record.header().tid);
  if (it == threads_.end() || it->second.tgid != fd->first) it = threads_.find(fd->first);
  if (it == threads_.end()) return;
  ShareFds(it->second);
  it->second.fds->Set(std::move(fd->second));
}

void ThreadTable::Insert(ThreadInfo info) {
  const uint32_t tid = info.tid;
  Upsert(tid) = std::move(info);
}

ThreadInfo& ThreadTable::Upsert(uint32_t tid) {
  auto it = threads_.find(tid);
  if (it != threads_.end()) return it->second;
  while (threads_.size() >= options_.max_entries) EvictOne();
  last_found_.Forget();
  ThreadInfo& t = threads_[tid];
  t.tid = tid;
  return t;
}

void ThreadTable::Erase(Threads::iterator it) {
  last_found_.Forget();
  threads_.erase(it);
}

void ThreadTable::EvictOne() {
  while (!exits_.empty()) {
    const auto [tid, ts] = exits_.front();
    exits_.pop_front();
    auto it = threads_.find(tid);
    if (it != threads_.end() && IsThreadExited(it->second, ts)) {
      Erase(it);
      ++evictions_;
      return;
    }
  }
  // Every entry is live: which one goes matters less than staying bounded.
  Erase(threads_.begin());
  ++evictions_;
}

void ThreadTable::Advance(uint64_t ts_ns) {
  if (ts_ns > now_ns_) now_ns_ = ts_ns;
  while (!exits_.empty() && exits_.front().second + options_.exit_grace_ns < now_ns_) {
    const auto [tid, ts] = exits_.front();
    exits_.pop_front();
    auto it = threads_.find(tid);
    if (it != threads_.end() && IsThreadExited(it->second, ts)) Erase(it);
  }
}

void ThreadTable::MarkExited(ThreadInfo& t, uint64_t ts_ns) {
  t.exited = true;
  t.exit_ts_ns = ts_ns;
  exits_.emplace_back(t.tid, ts_ns);
}

void ThreadTable::Apply(const RecordView& record) {
  if (IsSnapshotRecord(record.header().type)) return ApplySnapshotRecord(record);
  if (record.header().type == KESTREL_EVT_GENERIC_SYSCALL) {
    if (absl::StatusOr<GenericSyscall> sc = DecodeGenericSyscall(record); sc.ok()) {
      ApplyGeneric(record.header(), *sc);
    }
    return;
  }
  const kestrel_record_header& h = record.header();
  // Most records change nothing: they cost the clock and the process id,
  // without being decoded.
  if (!IsThreadLifeEvent(h.type) && StateUpdateFor(h.type) == nullptr) {
    fd_name_tracked_ = false;
    Advance(h.ts_ns);
    auto it = threads_.find(h.tid);
    if (it != threads_.end() && !it->second.exited) it->second.tgid = h.tgid;
    return;
  }
  if (absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(record); event.ok()) {
    ApplyEvent(*event);
  }
}

void ThreadTable::ApplyGeneric(const kestrel_record_header& h, const GenericSyscall& syscall) {
  fd_name_tracked_ = false;
  Advance(h.ts_ns);
  // A generic exec (an ia32 caller) carries no comm: forget the thread, so
  // the next lookup reads what it became.
  static const uint32_t kExecve = SyscallId("execve").value_or(UINT32_MAX);
  static const uint32_t kExecveat = SyscallId("execveat").value_or(UINT32_MAX);
  if ((syscall.id == kExecve || syscall.id == kExecveat) && syscall.ret == 0) {
    if (const auto it = threads_.find(h.tid); it != threads_.end()) Erase(it);
  }
}

void ThreadTable::ApplyEvent(const DecodedEvent& event) {
  const kestrel_record_header& h = event.record().header();
  fd_name_tracked_ = false;  // set again below if this record names a known fd
  Advance(h.ts_ns);
  const auto found = threads_.find(h.tid);
  ThreadInfo* const entry = found != threads_.end() ? &found->second : nullptr;
  if (entry != nullptr) last_found_.Set(h.tid, entry);  // the fields look it up next
  if (entry != nullptr && !entry->exited) entry->tgid = h.tgid;
  switch (h.type) {
    case KESTREL_EVT_CLONE:
    case KESTREL_EVT_CLONE3:
    case KESTREL_EVT_FORK:
    case KESTREL_EVT_VFORK:
      ApplyClone(h, event);
      InheritFds(h, event);
      return;
    case KESTREL_EVT_EXECVE:
    case KESTREL_EVT_EXECVEAT:
      ApplyExec(h, event);
      if (event.Return() == 0) {
        if (auto exec = threads_.find(h.tid); exec != threads_.end()) CloseOnExec(exec->second);
      }
      return;
    case KESTREL_EVT_PRCTL: {
      std::optional<std::string> name = event.String("arg2_str");
      if (event.Int("option") == PR_SET_NAME && name && !name->empty()) {
        if (ThreadInfo* t = Lookup(h.tgid, h.tid)) t->comm = *std::move(name);
      }
      return;
    }
    case KESTREL_EVT_PROCESS_EXIT: {
      if (entry != nullptr && !entry->exited) MarkExited(*entry, h.ts_ns);
      // Orphans go to the reaper the kernel chose: a thread of the same
      // process leaves their parent process unchanged.
      const std::optional<int64_t> reaper_tid = event.Int("reaper_tid");
      if (!reaper_tid || *reaper_tid <= 0 || event.Int("group_dead") != 1) return;
      const ThreadInfo* reaper = Find(static_cast<uint32_t>(*reaper_tid));
      const uint32_t reaper_pid =
          reaper && reaper->tgid != 0 ? reaper->tgid : static_cast<uint32_t>(*reaper_tid);
      if (reaper_pid == h.tgid) return;
      for (auto& [tid, t] : threads_) {
        if (t.ppid == h.tgid && t.tgid != h.tgid) t.ppid = reaper_pid;
      }
      return;
    }
    default:
      break;
  }
  const StateUpdate update = StateUpdateFor(h.type);
  if (update == nullptr) return;
  ThreadInfo* t = entry != nullptr ? entry : Lookup(h.tgid, h.tid);
  if (t == nullptr) return;
  ShareFds(*t);
  Others others(*this);
  const std::optional<int64_t> fd = event.Int(KnownParam::kFd);
  const FdInfo* before = fd ? t->fds->Find(*fd) : nullptr;
  if (before != nullptr) {
    fd_name_tracked_ = true;
    fd_name_before_ = before->name;
    fd_name_changed_ts_ = h.ts_ns;
    fd_name_changed_tid_ = h.tid;
    fd_name_changed_fd_ = *fd;
  }
  update(*t, event, others);
}

bool ThreadTable::FdNameChangedBy(const kestrel_record_header& h) const {
  if (!fd_name_tracked_ || fd_name_changed_ts_ != h.ts_ns || fd_name_changed_tid_ != h.tid) {
    return false;
  }
  // The table is as that record left it (it was the last one applied): the
  // descriptor's entry now is its entry after the update, if it has one.
  const ThreadInfo* t = Find(h.tid);
  const FdInfo* after =
      t != nullptr && t->fds != nullptr ? t->fds->Find(fd_name_changed_fd_) : nullptr;
  return after != nullptr && after->name != fd_name_before_;
}

ThreadInfo* ThreadTable::Others::FindThread(uint32_t tid) {
  auto it = table_.threads_.find(tid);
  return it == table_.threads_.end() ? nullptr : &it->second;
}

void ThreadTable::ShareFds(ThreadInfo& t) {
  if (t.fds) return;
  auto leader = threads_.find(t.tgid);
  if (leader != threads_.end() && leader->second.fds) {
    t.fds = leader->second.fds;
    return;
  }
  t.fds = std::make_shared<FdTable>();
  if (leader != threads_.end()) leader->second.fds = t.fds;
}

void ThreadTable::InheritFds(const kestrel_record_header& h, const DecodedEvent& event) {
  // The child's host tid (the return value is its id in the caller's pid
  // namespace).
  std::optional<int64_t> child_tid = event.Int("child_tid");
  if (!child_tid) child_tid = event.Return();
  if (!child_tid || *child_tid <= 0) return;
  auto child = threads_.find(static_cast<uint32_t>(*child_tid));
  auto parent = threads_.find(h.tid);
  if (child == threads_.end() || parent == threads_.end() || !parent->second.fds) return;
  const uint64_t flags = static_cast<uint64_t>(event.Int("flags").value_or(0));
  if (flags & CLONE_FILES) {
    child->second.fds = parent->second.fds;
  } else {
    child->second.fds = std::make_shared<FdTable>(*parent->second.fds);
  }
}

void ThreadTable::ApplyClone(const kestrel_record_header& h, const DecodedEvent& event) {
  const std::optional<int64_t> res = event.Return();
  const std::optional<int64_t> child_tid = event.Int("child_tid");
  const std::optional<int64_t> child_pid = event.Int("child_pid");
  // The child's own return (res 0) and failures add nobody: the caller's
  // record, which precedes everything the child does, made its entry. The
  // child's record alone names its pid namespace's init.
  if (res && *res == 0) {
    if (ThreadInfo* t = Lookup(h.tgid, h.tid)) {
      SetPidnsInitStart(*t, event.Int("pidns_init_start_ts"), options_.boot_time_ns);
    }
  }
  if (!res || *res <= 0 || !child_tid || *child_tid <= 0 || !child_pid || *child_pid <= 0) {
    return;
  }
  // What the record does not carry (exepath, real ids, capabilities,
  // loginuid, exe facts, env, root, session) the child inherits from the
  // caller's entry unchanged.
  const ThreadInfo* parent = Lookup(h.tgid, h.tid);
  ThreadInfo child = parent ? *parent : ThreadInfo{};
  child.tid = static_cast<uint32_t>(*child_tid);
  child.tgid = static_cast<uint32_t>(*child_pid);
  child.vtid = 0;
  child.vpid = 0;
  SetId(child.vtid, event.Int("child_vtid"));
  SetId(child.vpid, event.Int("child_vpid"));
  child.exited = false;
  child.exit_ts_ns = 0;
  // Falco's process start is its clone's time.
  child.start_ns = options_.boot_time_ns != 0 ? h.ts_ns + options_.boot_time_ns : 0;
  if (std::optional<std::string> comm = event.String("comm"); comm && !comm->empty()) {
    child.comm = *std::move(comm);
  }
  if (std::optional<std::string> exe = event.String("exe"); exe && !exe->empty()) {
    child.exe = *std::move(exe);
  }
  event.AssignStringList("args", child.args);
  if (std::optional<std::string> cwd = event.String("cwd"); cwd && !cwd->empty()) {
    child.cwd = *std::move(cwd);
  }
  SetUid(child.euid, event.Int("uid"));
  SetUid(child.egid, event.Int("gid"));
  if (std::optional<std::string> cgroup = CgroupPath(event)) child.cgroup = *std::move(cgroup);
  AssignControllerCgroups(event, child.cgroups);
  const uint64_t flags = static_cast<uint64_t>(event.Int("flags").value_or(0));
  // Its pid namespace's init: the host's starts at boot (as Falco); the
  // first process of a new namespace is that init; otherwise the caller's
  // until the child's own record says (setns moves only the children).
  if (child.vpid == child.tgid) {
    child.pidns_init_start_ns = options_.boot_time_ns;
  } else if (child.vpid == 1) {
    child.pidns_init_start_ns = child.start_ns;
  }
  const bool same_parent = child.tgid == h.tgid || (flags & CLONE_PARENT);
  if (!same_parent) child.ppid = h.tgid;  // else: the caller's parent, inherited
  Insert(std::move(child));
}

void ThreadTable::ApplyExec(const kestrel_record_header& h, const DecodedEvent& event) {
  std::optional<std::string> comm = event.String("comm");
  // A failed exec changes nothing, but its comm is what the thread is
  // called now, as good as any record can say.
  ThreadInfo& t = Upsert(h.tid);
  t.tgid = h.tgid;
  if (comm && !comm->empty()) t.comm = *std::move(comm);
  if (event.Return() != 0) return;
  if (std::optional<std::string> exe = event.String("exe")) t.exe = *std::move(exe);
  if (std::optional<std::string> path = event.String("trusted_exepath")) {
    t.exepath = *std::move(path);
  }
  event.AssignStringList("args", t.args);
  event.AssignStringList("env", t.env);
  if (std::optional<std::string> cwd = event.String("cwd"); cwd && !cwd->empty()) {
    t.cwd = *std::move(cwd);
  }
  if (std::optional<int64_t> ppid = event.Int("ppid"); ppid && *ppid >= 0) {
    t.ppid = static_cast<uint32_t>(*ppid);
  }
  // The exec'ing thread becomes the process's only thread; its ids in its
  // own pid namespace do not change. The namespace's own numbering of the
  // process is vpgid's namespace: only the group id is recorded there.
  SetId(t.sid, event.Int("sid"));
  SetId(t.pgid, event.Int("pgid"));
  SetUid(t.tty, event.Int("tty"));
  SetUid(t.uid, event.Int("ruid"));
  SetUid(t.gid, event.Int("rgid"));
  SetUid(t.euid, event.Int("uid"));
  SetUid(t.egid, event.Int("gid"));
  SetUid(t.loginuid, event.Int("loginuid"));
  t.cap_effective = static_cast<uint64_t>(event.Int("cap_effective").value_or(0));
  t.cap_permitted = static_cast<uint64_t>(event.Int("cap_permitted").value_or(0));
  t.cap_inheritable = static_cast<uint64_t>(event.Int("cap_inheritable").value_or(0));
  if (std::optional<std::string> cgroup = CgroupPath(event)) t.cgroup = *std::move(cgroup);
  AssignControllerCgroups(event, t.cgroups);
  t.exe_ino = static_cast<uint64_t>(event.Int("exe_ino").value_or(0));
  t.exe_ctime_ns = static_cast<uint64_t>(event.Int("exe_ino_ctime").value_or(0));
  t.exe_mtime_ns = static_cast<uint64_t>(event.Int("exe_ino_mtime").value_or(0));
  t.exe_writable = event.Int("exe_writable").value_or(0) != 0;
  t.exe_from_memfd = event.Int("exe_memfd").value_or(0) != 0;
  t.exe_upper_layer = event.Int("exe_upper_layer").value_or(0) != 0;
  t.exe_lower_layer = event.Int("exe_lower_layer").value_or(0) != 0;
  SetPidnsInitStart(t, event.Int("pidns_init_start_ts"), options_.boot_time_ns);
  // `t` may move from here on.
  ResolveParent(t.ppid, t.tgid);
}

void ThreadTable::ResolveParent(uint32_t ppid, uint32_t tgid) {
  if (ppid != 0 && ppid != tgid && !threads_.contains(ppid)) Lookup(ppid, ppid);
}

const ThreadInfo* ThreadTable::Find(uint32_t tid) const {
  if (const ThreadInfo* last = last_found_.Get(tid)) return last;
  auto it = threads_.find(tid);
  if (it == threads_.end()) return nullptr;
  last_found_.Set(tid, &it->second);
  return &it->second;
}

const ThreadInfo* ThreadTable::Ancestor(const ThreadInfo& thread, int n) const {
  if (n < 0 || n > kMaxAncestors) return nullptr;
  const ThreadInfo* t = &thread;
  for (int i = 0; i < n; ++i) {
    if (t->ppid == 0 || t->ppid == t->tgid) return nullptr;
    t = Find(t->ppid);
    if (t == nullptr) return nullptr;
  }
  return t;
}

const ThreadInfo* ThreadTable::Resolve(uint32_t tgid, uint32_t tid) { return Lookup(tgid, tid); }

ThreadInfo* ThreadTable::Lookup(uint32_t tgid, uint32_t tid) {
  auto it = threads_.find(tid);
  if (it != threads_.end()) return &it->second;
  if (!options_.proc_fallback) return nullptr;
  ++proc_fallbacks_;
  std::optional<ThreadInfo> read = ReadProcThread(options_.proc_root, tgid, tid);
  if (read) {
    // A thread no record described came up behind lost records (its
    // clone, its parent's exec): its parent may be unknown too, and
    // proc.pname and proc.aname[n] walk the table, never /proc. Read the
    // parent while /proc still shows it, up to the first known ancestor.
    ResolveParent(read->ppid, read->tgid);
    // A thread of a process already known shares its descriptor table.
    if (auto leader = threads_.find(tgid); leader != threads_.end() && leader->second.fds) {
      read->fds = leader->second.fds;
    }
    ThreadInfo& t = Upsert(tid);
    t = *std::move(read);
    return &t;
  }
  // Gone already: remember that, for as long as an exited thread.
  ThreadInfo& t = Upsert(tid);
  t.tgid = tgid;
  MarkExited(t, now_ns_);
  return &t;
}

}  // namespace kestrel::engine
