#include "snapshot_records.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "fd_table.h"
#include "proc_reader.h"
#include "shared/event_types.h"

namespace kestrel::engine {
namespace {

// Every string fits under this, every list under the buffer bound: a
// thread record with all of them full still fits KESTREL_MAX_RECORD_BYTES.
constexpr size_t kMaxStringParam = 4096;
// Records sit back to back in one buffer, each starting 8-aligned as its
// header requires (as in capture files).
constexpr size_t Padded(size_t len) { return (len + 7) & ~size_t{7}; }
constexpr size_t kMaxListParam = static_cast<size_t>(KESTREL_MAX_BUFFER_PARAM_BYTES);

constexpr uint32_t kThreadParams = 29;
// Appended after kThreadParams: files written before them lack them.
constexpr uint32_t kThreadCgroupsParam = 29;
constexpr uint32_t kThreadPidnsInitParam = 30;
constexpr uint32_t kFdParams = 18;

constexpr uint8_t kExeWritable = 1, kExeFromMemfd = 2, kExeUpperLayer = 4, kExeLowerLayer = 8;
constexpr uint8_t kSocketConnected = 1, kSocketServer = 2;
constexpr uint8_t kFdUpperLayer = 1, kFdLowerLayer = 2;

// Gathers one record's parameters, then lays the record out.
class RecordBuilder {
 public:
  template <typename T>
  void Integer(T value) {
    std::string bytes(sizeof(T), '\0');
    std::memcpy(bytes.data(), &value, sizeof(T));
    params_.push_back(std::move(bytes));
  }
  void String(std::string_view s) {
    if (s.size() > kMaxStringParam) {
      s = s.substr(0, kMaxStringParam);
      truncated_ = true;
    }
    params_.emplace_back(s);
  }
  // Each entry followed by its NUL; whole entries only, as many as fit.
  void List(const std::vector<std::string>& entries, size_t max = kMaxListParam) {
    std::string bytes;
    for (const std::string& e : entries) {
      if (bytes.size() + e.size() + 1 > max) {
        truncated_ = true;
        break;
      }
      bytes.append(e);
      bytes.push_back('\0');
    }
    params_.push_back(std::move(bytes));
  }

  void AppendTo(std::vector<uint8_t>& out, uint16_t type, uint32_t tid, uint32_t tgid,
                uint64_t ts_ns) const {
    kestrel_record_header h{};
    h.ts_ns = ts_ns;
    h.tid = tid;
    h.tgid = tgid;
    h.type = type;
    h.version = KESTREL_SCHEMA_VERSION;
    h.nparams = static_cast<uint8_t>(params_.size());
    h.flags = truncated_ ? KESTREL_RECORD_TRUNCATED : 0;
    size_t len = sizeof(h) + params_.size() * sizeof(uint16_t);
    for (const std::string& p : params_) len += p.size();
    h.len = static_cast<uint32_t>(len);
    const size_t start = out.size();
    out.resize(start + Padded(len));
    uint8_t* at = out.data() + start;
    std::memcpy(at, &h, sizeof(h));
    at += sizeof(h);
    for (const std::string& p : params_) {
      const auto n = static_cast<uint16_t>(p.size());
      std::memcpy(at, &n, sizeof(n));
      at += sizeof(n);
    }
    for (const std::string& p : params_) {
      // NOLINTNEXTLINE(bugprone-not-null-terminated-result): lengths lead the record, no NULs
      std::memcpy(at, p.data(), p.size());
      at += p.size();
    }
  }

 private:
  std::vector<std::string> params_;
  bool truncated_ = false;
};

std::string StringParam(const RecordView& r, uint32_t i) {
  std::span<const uint8_t> b = r.param(i);
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

std::vector<std::string> ListParam(const RecordView& r, uint32_t i) {
  std::vector<std::string> out;
  std::span<const uint8_t> b = r.param(i);
  std::string_view rest(reinterpret_cast<const char*>(b.data()), b.size());
  while (!rest.empty()) {
    const size_t nul = rest.find('\0');
    out.emplace_back(rest.substr(0, nul));
    if (nul == std::string_view::npos) break;
    rest.remove_prefix(nul + 1);
  }
  return out;
}

// Reads integer parameters in order, remembering the first failure.
class IntegerReader {
 public:
  explicit IntegerReader(const RecordView& r) : r_(r) {}
  template <typename T>
  void Read(uint32_t i, T& out) {
    absl::StatusOr<T> v = r_.Integer<T>(i);
    if (v.ok()) {
      out = *v;
    } else if (status_.ok()) {
      status_ = v.status();
    }
  }
  const absl::Status& status() const { return status_; }

 private:
  const RecordView& r_;
  absl::Status status_;
};

absl::Status CheckShape(const RecordView& r, uint16_t type, uint32_t nparams) {
  if (r.header().type != type) {
    return absl::InvalidArgumentError(
        absl::StrFormat("record type %u is not %u", r.header().type, type));
  }
  if (r.nparams() < nparams) {
    return absl::InvalidArgumentError(
        absl::StrFormat("snapshot record with %u parameters, fewer than %u", r.nparams(), nparams));
  }
  return absl::OkStatus();
}

}  // namespace

void SnapshotRecords::AddThread(const ThreadInfo& t, uint64_t ts_ns) {
  RecordBuilder b;
  b.Integer<uint32_t>(t.tid);
  b.Integer<uint32_t>(t.tgid);
  b.Integer<uint32_t>(t.ppid);
  b.Integer<uint32_t>(t.vtid);
  b.Integer<uint32_t>(t.vpid);
  b.Integer<uint32_t>(t.sid);
  b.Integer<uint32_t>(t.pgid);
  b.Integer<uint32_t>(t.tty);
  b.String(t.comm);
  b.String(t.exe);
  b.String(t.exepath);
  b.List(t.args);
  b.List(t.env);
  b.String(t.cwd);
  b.String(t.root);
  b.Integer<uint32_t>(t.uid);
  b.Integer<uint32_t>(t.gid);
  b.Integer<uint32_t>(t.euid);
  b.Integer<uint32_t>(t.egid);
  b.Integer<uint32_t>(t.loginuid);
  b.Integer<uint64_t>(t.cap_effective);
  b.Integer<uint64_t>(t.cap_permitted);
  b.Integer<uint64_t>(t.cap_inheritable);
  b.String(t.cgroup);
  b.Integer<uint64_t>(t.start_ns);
  b.Integer<uint64_t>(t.exe_ino);
  b.Integer<uint64_t>(t.exe_ctime_ns);
  b.Integer<uint64_t>(t.exe_mtime_ns);
  b.Integer<uint8_t>((t.exe_writable ? kExeWritable : 0) | (t.exe_from_memfd ? kExeFromMemfd : 0) |
                     (t.exe_upper_layer ? kExeUpperLayer : 0) |
                     (t.exe_lower_layer ? kExeLowerLayer : 0));
  // A string's bound, not a list's: the record stays under its maximum.
  b.List(t.cgroups, kMaxStringParam);
  b.Integer<uint64_t>(t.pidns_init_start_ns);
  b.AppendTo(bytes_, KESTREL_EVT_SNAPSHOT_THREAD, t.tid, t.tgid, ts_ns);
  ++count_;
}

void SnapshotRecords::AddFd(uint32_t tid, uint32_t pid, const FdInfo& fd, uint64_t ts_ns) {
  RecordBuilder b;
  b.Integer<uint32_t>(pid);
  b.Integer<int64_t>(fd.fd);
  b.Integer<uint8_t>(static_cast<uint8_t>(fd.type));
  b.String(fd.name);
  b.String(fd.nameraw);
  b.Integer<uint32_t>(fd.open_flags);
  b.Integer<uint64_t>(fd.dev);
  b.Integer<uint64_t>(fd.ino);
  b.Integer<uint8_t>(fd.family);
  b.Integer<uint8_t>(fd.l4proto);
  b.Integer<int32_t>(fd.sock_type);
  b.Integer<uint8_t>(fd.local.family);
  b.String(fd.local.address);
  b.Integer<uint16_t>(fd.local.port);
  b.Integer<uint8_t>(fd.remote.family);
  b.String(fd.remote.address);
  b.Integer<uint16_t>(fd.remote.port);
  b.Integer<uint8_t>((fd.connected ? kSocketConnected : 0) | (fd.is_server ? kSocketServer : 0));
  b.Integer<uint8_t>((fd.overlay_upper ? kFdUpperLayer : 0) |
                     (fd.overlay_lower ? kFdLowerLayer : 0));
  b.AppendTo(bytes_, KESTREL_EVT_SNAPSHOT_FD, tid, pid, ts_ns);
  ++count_;
}

absl::Status SnapshotRecords::AddRecord(const kestrel_record_header* record) {
  absl::StatusOr<RecordView> view = RecordView::Parse(record, record->len);
  if (!view.ok()) return view.status();
  if (!IsSnapshotRecord(record->type)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("record type %u is not a snapshot record", record->type));
  }
  const auto* b = reinterpret_cast<const uint8_t*>(record);
  bytes_.insert(bytes_.end(), b, b + record->len);
  bytes_.resize(bytes_.size() - record->len + Padded(record->len));
  ++count_;
  return absl::OkStatus();
}

void SnapshotRecords::ForEach(
    const std::function<void(const kestrel_record_header*)>& visit) const {
  // Every record was laid out (or checked) whole by this class.
  for (size_t at = 0; at < bytes_.size();) {
    const auto* h = reinterpret_cast<const kestrel_record_header*>(bytes_.data() + at);
    visit(h);
    at += Padded(h->len);
  }
}

SnapshotRecords MakeProcSnapshot(const std::string& proc_root) {
  timespec now{};
  clock_gettime(CLOCK_BOOTTIME, &now);
  const uint64_t ts_ns =
      static_cast<uint64_t>(now.tv_sec) * 1'000'000'000 + static_cast<uint64_t>(now.tv_nsec);
  SnapshotRecords out;
  // The table of the process read last: its threads share it. Held, not
  // just its address, so the next process's table cannot reuse the address
  // and have its descriptors skipped.
  std::shared_ptr<const FdTable> listed;
  ForEachProcThread(proc_root, [&](const ThreadInfo& t) {
    out.AddThread(t, ts_ns);
    if (!t.fds || t.fds == listed) return;
    listed = t.fds;
    std::vector<const FdInfo*> fds;
    for (const auto& [fd, info] : t.fds->entries()) fds.push_back(&info);
    std::sort(fds.begin(), fds.end(),
              [](const FdInfo* a, const FdInfo* b) { return a->fd < b->fd; });
    for (const FdInfo* fd : fds) out.AddFd(t.tid, t.tgid, *fd, ts_ns);
  });
  return out;
}

bool IsSnapshotRecord(uint16_t type) {
  return type == KESTREL_EVT_SNAPSHOT_THREAD || type == KESTREL_EVT_SNAPSHOT_FD;
}

absl::StatusOr<ThreadInfo> DecodeSnapshotThread(const RecordView& r) {
  if (absl::Status s = CheckShape(r, KESTREL_EVT_SNAPSHOT_THREAD, kThreadParams); !s.ok()) return s;
  ThreadInfo t;
  IntegerReader ints(r);
  ints.Read(0, t.tid);
  ints.Read(1, t.tgid);
  ints.Read(2, t.ppid);
  ints.Read(3, t.vtid);
  ints.Read(4, t.vpid);
  ints.Read(5, t.sid);
  ints.Read(6, t.pgid);
  ints.Read(7, t.tty);
  t.comm = StringParam(r, 8);
  t.exe = StringParam(r, 9);
  t.exepath = StringParam(r, 10);
  t.args = ListParam(r, 11);
  t.env = ListParam(r, 12);
  t.cwd = StringParam(r, 13);
  t.root = StringParam(r, 14);
  ints.Read(15, t.uid);
  ints.Read(16, t.gid);
  ints.Read(17, t.euid);
  ints.Read(18, t.egid);
  ints.Read(19, t.loginuid);
  ints.Read(20, t.cap_effective);
  ints.Read(21, t.cap_permitted);
  ints.Read(22, t.cap_inheritable);
  t.cgroup = StringParam(r, 23);
  ints.Read(24, t.start_ns);
  ints.Read(25, t.exe_ino);
  ints.Read(26, t.exe_ctime_ns);
  ints.Read(27, t.exe_mtime_ns);
  uint8_t exe_bits = 0;
  ints.Read(28, exe_bits);
  if (!ints.status().ok()) return ints.status();
  t.exe_writable = exe_bits & kExeWritable;
  t.exe_from_memfd = exe_bits & kExeFromMemfd;
  t.exe_upper_layer = exe_bits & kExeUpperLayer;
  t.exe_lower_layer = exe_bits & kExeLowerLayer;
  if (r.nparams() > kThreadCgroupsParam) t.cgroups = ListParam(r, kThreadCgroupsParam);
  if (r.nparams() > kThreadPidnsInitParam) {
    ints.Read(kThreadPidnsInitParam, t.pidns_init_start_ns);
    if (!ints.status().ok()) return ints.status();
  }
  return t;
}

absl::StatusOr<std::pair<uint32_t, FdInfo>> DecodeSnapshotFd(const RecordView& r) {
  if (absl::Status s = CheckShape(r, KESTREL_EVT_SNAPSHOT_FD, kFdParams); !s.ok()) return s;
  uint32_t pid = 0;
  FdInfo fd;
  IntegerReader ints(r);
  ints.Read(0, pid);
  ints.Read(1, fd.fd);
  uint8_t type = 0;
  ints.Read(2, type);
  fd.type = static_cast<FdType>(type);
  fd.name = StringParam(r, 3);
  fd.nameraw = StringParam(r, 4);
  ints.Read(5, fd.open_flags);
  ints.Read(6, fd.dev);
  ints.Read(7, fd.ino);
  ints.Read(8, fd.family);
  ints.Read(9, fd.l4proto);
  ints.Read(10, fd.sock_type);
  ints.Read(11, fd.local.family);
  fd.local.address = StringParam(r, 12);
  ints.Read(13, fd.local.port);
  ints.Read(14, fd.remote.family);
  fd.remote.address = StringParam(r, 15);
  ints.Read(16, fd.remote.port);
  uint8_t socket_bits = 0;
  ints.Read(17, socket_bits);
  if (!ints.status().ok()) return ints.status();
  if (type > static_cast<uint8_t>(FdType::kIoUring)) fd.type = FdType::kUnknown;
  fd.connected = socket_bits & kSocketConnected;
  fd.is_server = socket_bits & kSocketServer;
  // Appended later: older snapshots do not have it.
  if (r.nparams() > kFdParams) {
    uint8_t layer_bits = 0;
    ints.Read(kFdParams, layer_bits);
    if (!ints.status().ok()) return ints.status();
    fd.overlay_upper = layer_bits & kFdUpperLayer;
    fd.overlay_lower = layer_bits & kFdLowerLayer;
  }
  return std::make_pair(pid, std::move(fd));
}

}  // namespace kestrel::engine
