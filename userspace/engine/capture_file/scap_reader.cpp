#include "scap_reader.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/decode/event_schema.h"
#include "engine/decode/nul_separated.h"
#include "engine/state/container_id.h"
#include "scap_event_table.h"
#include "shared/event_schema.h"
#include "shared/event_types.h"

namespace kestrel::engine::capture_file {
namespace {

// libscap's block types (userspace/libscap/scap_savefile.h). Each block is
// {u32 type, u32 total length, body, padding to 4, u32 total length}.
constexpr uint32_t kSectionHeader = 0x0A0D0D0A;
constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;
constexpr uint16_t kMajorVersion = 1;
constexpr uint32_t kMachineInfo = 0x201, kMachineInfoInt = 0x8002ABCD;
constexpr uint32_t kFdList = 0x203, kFdListInt = 0x8001ABCD, kFdListV2 = 0x218;
constexpr uint32_t kEvent = 0x204, kEventInt = 0x8010ABCD, kEventV2 = 0x216, kEventV2Large = 0x221;
constexpr uint32_t kEventFlags = 0x208, kEventFlagsV2 = 0x217, kEventFlagsV2Large = 0x222;
constexpr size_t kBlockOverhead = 12;  // type, length, trailing length

// The process list block's version (PL_BLOCK_TYPE_V1 .. V9), 0 when
// `type` is no process list.
int ProcessListVersion(uint32_t type) {
  switch (type) {
    case 0x202:
    case 0x8000ABCD:
      return 1;
    case 0x207:
    case 0x8013ABCD:
      return 2;
    case 0x209:
    case 0x8014ABCD:
      return 3;
    default:
      return type >= 0x210 && type <= 0x215 ? static_cast<int>(type - 0x210) + 4 : 0;
  }
}

bool IsEventBlock(uint32_t type) {
  return type == kEvent || type == kEventInt || type == kEventV2 || type == kEventV2Large ||
         type == kEventFlags || type == kEventFlagsV2 || type == kEventFlagsV2Large;
}
bool HasFlags(uint32_t type) {
  return type == kEventFlags || type == kEventFlagsV2 || type == kEventFlagsV2Large;
}
// Events of V2 blocks carry nparams in their header; older ones do not.
bool IsV2(uint32_t type) {
  return type == kEventV2 || type == kEventV2Large || type == kEventFlagsV2 ||
         type == kEventFlagsV2Large;
}

// libscap's descriptor kinds (scap_fd_type).
enum : uint8_t {
  kFdUnknown = 0,
  kFdFile = 1,
  kFdDirectory = 2,
  kFdIpv4Sock = 3,
  kFdIpv6Sock = 4,
  kFdIpv4ServSock = 5,
  kFdIpv6ServSock = 6,
  kFdFifo = 7,
  kFdUnixSock = 8,
  kFdEvent = 9,
  kFdUnsupported = 10,
  kFdSignalfd = 11,
  kFdEventpoll = 12,
  kFdInotify = 13,
  kFdTimerfd = 14,
  kFdNetlink = 15,
  kFdFileV2 = 16,
  kFdBpf = 17,
  kFdUserfaultfd = 18,
  kFdIoUring = 19,
  kFdMemfd = 20,
  kFdPidfd = 21,
};

constexpr size_t kMaxInflatedBytes = size_t{1} << 30;
// Bounds on what hostile input can make the reader hold per thread.
constexpr size_t kMaxTrackedThreads = 1 << 16;

// Reads a block body front to back; every read is bounds-checked and the
// first short one makes ok() false for good.
class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> bytes) : b_(bytes) {}
  template <typename T>
  bool Read(T& out) {
    if (!ok_ || b_.size() - at_ < sizeof(T)) return ok_ = false;
    std::memcpy(&out, b_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool Bytes(size_t n, std::span<const uint8_t>& out) {
    if (!ok_ || b_.size() - at_ < n) return ok_ = false;
    out = b_.subspan(at_, n);
    at_ += n;
    return true;
  }
  // A u16 length, then that many bytes (libscap's strings on disk).
  bool String(std::string& out) {
    uint16_t n = 0;
    std::span<const uint8_t> bytes;
    if (!Read(n) || !Bytes(n, bytes)) return false;
    out.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return true;
  }
  bool SkipTo(size_t at) {
    if (!ok_ || at > b_.size() || at < at_) return ok_ = false;
    at_ = at;
    return true;
  }
  size_t at() const { return at_; }
  size_t left() const { return b_.size() - at_; }
  bool ok() const { return ok_; }

 private:
  std::span<const uint8_t> b_;
  size_t at_ = 0;
  bool ok_ = true;
};

// Up to the first NUL.
std::string CString(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

// libscap's open flags (PPM_O_*) as the kernel's O_*.
uint32_t OpenFlagsFromScap(uint64_t ppm) {
  uint32_t out = (ppm & 3) == 3 ? O_RDWR : (ppm & 2) ? O_WRONLY : O_RDONLY;
  constexpr std::pair<uint32_t, uint32_t> kBits[] = {
      {1u << 2, O_CREAT},      {1u << 3, O_APPEND},   {1u << 4, O_DSYNC},
      {1u << 5, O_EXCL},       {1u << 6, O_NONBLOCK}, {1u << 7, O_SYNC},
      {1u << 8, O_TRUNC},      {1u << 9, O_DIRECT},   {1u << 10, O_DIRECTORY},
      {1u << 11, O_LARGEFILE}, {1u << 12, O_CLOEXEC}, {1u << 13, O_TMPFILE},
  };
  for (const auto& [ppm_bit, bit] : kBits) {
    if (ppm & ppm_bit) out |= bit;
  }
  return out;
}

// libscap's clone flags (PPM_CL_*) as the kernel's CLONE_*.
uint64_t CloneFlagsFromScap(uint64_t ppm) {
  constexpr std::pair<uint32_t, uint64_t> kBits[] = {
      {1u << 0, CLONE_FILES},         {1u << 1, CLONE_FS},       {1u << 2, CLONE_IO},
      {1u << 3, CLONE_NEWIPC},        {1u << 4, CLONE_NEWNET},   {1u << 5, CLONE_NEWNS},
      {1u << 6, CLONE_NEWPID},        {1u << 7, CLONE_NEWUTS},   {1u << 8, CLONE_PARENT},
      {1u << 9, CLONE_PARENT_SETTID}, {1u << 10, CLONE_PTRACE},  {1u << 11, CLONE_SIGHAND},
      {1u << 12, CLONE_SYSVSEM},      {1u << 13, CLONE_THREAD},  {1u << 14, CLONE_UNTRACED},
      {1u << 15, CLONE_VM},           {1u << 20, CLONE_NEWUSER}, {1u << 23, CLONE_CHILD_CLEARTID},
      {1u << 24, CLONE_CHILD_SETTID}, {1u << 25, CLONE_SETTLS},  {1u << 27, CLONE_VFORK},
      {1u << 28, CLONE_NEWCGROUP},
  };
  uint64_t out = 0;
  for (const auto& [ppm_bit, bit] : kBits) {
    if (ppm & ppm_bit) out |= bit;
  }
  return out;
}

bool IsSignedScapType(uint8_t t) {
  return t == kScapInt8 || t == kScapInt16 || t == kScapInt32 || t == kScapInt64 ||
         t == kScapErrno || t == kScapFd || t == kScapPid;
}
bool IsNumericScapType(uint8_t t) {
  switch (t) {
    case kScapCharbuf:
    case kScapBytebuf:
    case kScapSockaddr:
    case kScapSocktuple:
    case kScapFdlist:
    case kScapFspath:
    case kScapFsrelpath:
    case kScapDyn:
    case kScapDouble:
    case kScapNone:
      return false;
    default:
      return true;
  }
}

// A numeric parameter of 1, 2, 4 or 8 bytes, sign-extended when its type
// is signed.
std::optional<int64_t> ScapInteger(uint8_t type, std::span<const uint8_t> b) {
  if (!IsNumericScapType(type)) return std::nullopt;
  const bool sign = IsSignedScapType(type);
  switch (b.size()) {
    case 1: {
      uint8_t v = b[0];
      return sign ? static_cast<int64_t>(static_cast<int8_t>(v)) : static_cast<int64_t>(v);
    }
    case 2: {
      uint16_t v;
      std::memcpy(&v, b.data(), 2);
      return sign ? static_cast<int64_t>(static_cast<int16_t>(v)) : static_cast<int64_t>(v);
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, b.data(), 4);
      return sign ? static_cast<int64_t>(static_cast<int32_t>(v)) : static_cast<int64_t>(v);
    }
    case 8: {
      int64_t v;
      std::memcpy(&v, b.data(), 8);
      return v;
    }
    default:
      return std::nullopt;
  }
}

std::string_view AsText(std::span<const uint8_t> b) {
  return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
}

// Which Kestrel record a libscap event becomes.
enum class Target : uint8_t { kNone, kSpecific, kGeneric, kProcessExit, kEnterOfKnown };

// A Kestrel parameter libscap keeps as bits of another one.
enum class Derived : uint8_t {
  kNone,
  kOpenFacts,       // open_facts: the open's flags' PPM_O_F_CREATED, PPM_FD_*_LAYER
  kOpenFactsCreat,  // open_facts: creat's creat_flags (PPM_FD_*_LAYER_CREAT)
  kExeWritable,     // the exec's flags' PPM_EXE_* bit, as 0 or 1
  kExeMemfd,
  kExeUpperLayer,
  kExeLowerLayer,
};

int64_t DeriveFromScap(Derived d, int64_t v) {
  constexpr int64_t kFacts =
      KESTREL_OPEN_F_CREATED | KESTREL_OPEN_F_UPPER_LAYER | KESTREL_OPEN_F_LOWER_LAYER;
  switch (d) {
    case Derived::kNone:
      return v;
    case Derived::kOpenFacts:
      return v & kFacts;  // the same bits
    case Derived::kOpenFactsCreat:
      return ((v & 1) ? KESTREL_OPEN_F_UPPER_LAYER : 0) |
             ((v & 2) ? KESTREL_OPEN_F_LOWER_LAYER : 0);
    case Derived::kExeWritable:
      return (v & 1) != 0;
    case Derived::kExeUpperLayer:
      return (v & 2) != 0;
    case Derived::kExeMemfd:
      return (v & 4) != 0;
    case Derived::kExeLowerLayer:
      return (v & 8) != 0;
  }
  return v;
}

// Which libscap parameter a Kestrel one is derived from, and how.
std::pair<std::string_view, Derived> DerivedFrom(const EventInfo& e, std::string_view param) {
  if (param == "open_facts") {
    return e.syscall == "creat" ? std::pair{"creat_flags", Derived::kOpenFactsCreat}
                                : std::pair{"flags", Derived::kOpenFacts};
  }
  if (e.syscall != "execve" && e.syscall != "execveat") return {"", Derived::kNone};
  if (param == "exe_writable") return {"flags", Derived::kExeWritable};
  if (param == "exe_memfd") return {"flags", Derived::kExeMemfd};
  if (param == "exe_upper_layer") return {"flags", Derived::kExeUpperLayer};
  if (param == "exe_lower_layer") return {"flags", Derived::kExeLowerLayer};
  return {"", Derived::kNone};
}

struct Mapping {
  Target target = Target::kNone;
  const EventInfo* event = nullptr;
  // Per Kestrel parameter: the index of the libscap parameter of that name
  // in this event, or -1.
  std::vector<int> scap_index;
  std::vector<Derived> derived;  // per Kestrel parameter
  bool counted = true;           // an unknown event counted (not the enter of an exit counted)
};

// Kestrel's syscall names libscap spells otherwise.
std::string_view ScapNameOf(std::string_view syscall) {
  if (syscall == "pread64") return "pread";
  if (syscall == "pwrite64") return "pwrite";
  if (syscall == "prlimit64") return "prlimit";
  return syscall;
}

const std::vector<Mapping>& Mappings() {
  static const std::vector<Mapping>* const mappings = [] {
    std::span<const ScapEventInfo> scap = ScapEvents();
    absl::flat_hash_map<std::string_view, const EventInfo*> kestrel;
    for (const EventInfo& e : AllEvents()) {
      if (!e.syscall.empty()) kestrel.emplace(ScapNameOf(e.syscall), &e);
    }
    const EventInfo* process_exit = nullptr;
    for (const EventInfo& e : OtherEvents()) {
      if (e.name == "PROCESS_EXIT") process_exit = &e;
    }
    absl::flat_hash_map<std::string_view, bool> has_exit;
    for (const ScapEventInfo& e : scap) {
      if (!(e.flags & kScapEnter)) has_exit[e.name] = true;
    }
    auto* out = new std::vector<Mapping>(scap.size());
    for (size_t type = 0; type < scap.size(); ++type) {
      const ScapEventInfo& e = scap[type];
      Mapping& m = (*out)[type];
      const bool enter = e.flags & kScapEnter;
      const EventInfo* target = nullptr;
      if (e.name == "syscall") {
        m.target = enter ? Target::kEnterOfKnown : Target::kGeneric;
      } else if (e.name == "procexit" && process_exit != nullptr) {
        m.target = Target::kProcessExit;
        target = process_exit;
      } else if (auto it = kestrel.find(e.name); it != kestrel.end()) {
        if (enter && has_exit.contains(e.name)) {
          m.target = Target::kEnterOfKnown;
        } else if (!enter) {
          m.target = Target::kSpecific;
          target = it->second;
        }
      }
      m.counted = m.target == Target::kNone && (!enter || !has_exit.contains(e.name));
      if (target == nullptr) continue;
      m.event = target;
      std::span<const ScapParamInfo> params = ScapEventParams(e);
      for (const ParamInfo& p : target->params) {
        int found = -1;
        for (size_t i = 0; i < params.size(); ++i) {
          if (params[i].name == p.name) found = static_cast<int>(i);
        }
        Derived derived = Derived::kNone;
        if (found < 0) {
          const auto [from, how] = DerivedFrom(*target, p.name);
          for (size_t i = 0; i < params.size() && how != Derived::kNone; ++i) {
            if (params[i].name == from) {
              found = static_cast<int>(i);
              derived = how;
            }
          }
        }
        m.scap_index.push_back(found);
        m.derived.push_back(derived);
      }
    }
    return out;
  }();
  return *mappings;
}

// Sockets whose libscap tuple runs remote to local (libscap writes the
// peer that initiated the exchange first); Kestrel's runs local to remote.
bool InboundTuple(std::string_view syscall) {
  return syscall == "accept" || syscall == "accept4" || syscall == "recvfrom" ||
         syscall == "recvmsg" || syscall == "recvmmsg";
}

// libscap's tuple as Kestrel's; nullopt when it is not one.
std::optional<std::string> TupleFromScap(std::span<const uint8_t> b, bool inbound) {
  if (b.empty()) return std::nullopt;
  const uint8_t family = b[0];
  if (family == KESTREL_AF_INET || family == KESTREL_AF_INET6) {
    const size_t side = (family == KESTREL_AF_INET ? 4 : 16) + 2;
    if (b.size() < 1 + 2 * side) return std::nullopt;
    std::string_view first = AsText(b.subspan(1, side)), second = AsText(b.subspan(1 + side, side));
    if (inbound) std::swap(first, second);
    std::string out(1, static_cast<char>(family));
    out.append(first);
    out.append(second);
    return out;
  }
  if (family == KESTREL_AF_UNIX) {
    // Two kernel pointers, then the path: the peer's, as Kestrel's tuple
    // has it second (its own path unknown, empty).
    if (b.size() < 17) return std::nullopt;
    std::string out(1, static_cast<char>(family));
    out.push_back('\0');
    out.append(CString(AsText(b.subspan(17))));
    out.push_back('\0');
    return out;
  }
  return std::string(AsText(b));
}

std::string InetAddress(int af, const uint8_t* raw) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(af, raw, text, sizeof(text));
  return text;
}

std::string Inflate(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return "cannot start inflating";
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(std::min<size_t>(in.size(), UINT32_MAX));
  std::string why;
  out.resize(std::min<size_t>(std::max<size_t>(in.size() * 4, 1 << 16), kMaxInflatedBytes));
  size_t have = 0;
  while (true) {
    if (have == out.size()) {
      if (out.size() >= kMaxInflatedBytes) {
        why = absl::StrFormat("it inflates to more than %u bytes", kMaxInflatedBytes);
        break;
      }
      out.resize(std::min(out.size() * 2, kMaxInflatedBytes));
    }
    z.next_out = out.data() + have;
    z.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - have, UINT32_MAX));
    const int rc = inflate(&z, Z_NO_FLUSH);
    have = out.size() - z.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      why = "its gzip stream is cut short";
      break;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      why = absl::StrCat("its gzip stream is damaged (", z.msg ? z.msg : "zlib error", ")");
      break;
    }
  }
  inflateEnd(&z);
  out.resize(have);
  return why;
}

}  // namespace

bool LooksLikeScap(std::span<const uint8_t> head) {
  if (head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b) return true;
  uint32_t type = 0;
  if (head.size() < sizeof(type)) return false;
  std::memcpy(&type, head.data(), sizeof(type));
  return type == kSectionHeader;
}

absl::StatusOr<std::unique_ptr<ScapReader>> ScapReader::Open(const std::string& path,
                                                             std::span<const uint8_t> file) {
  std::unique_ptr<ScapReader> r(new ScapReader());
  r->path_ = path;
  r->data_ = file;
  if (file.size() >= 2 && file[0] == 0x1f && file[1] == 0x8b) {
    r->inflate_note_ = Inflate(file, r->inflated_);
    r->data_ = r->inflated_;
  }
  // The section header block: {type, length, byte-order magic, major,
  // minor, section length, options..., length}.
  const std::span<const uint8_t> d = r->data_;
  uint32_t type = 0, length = 0, magic = 0;
  uint16_t major = 0;
  if (d.size() < 28) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s is not a .scap capture file%s", path,
                        r->inflate_note_.empty() ? "" : " (" + r->inflate_note_ + ")"));
  }
  std::memcpy(&type, d.data(), 4);
  std::memcpy(&length, d.data() + 4, 4);
  std::memcpy(&magic, d.data() + 8, 4);
  std::memcpy(&major, d.data() + 12, 2);
  if (type != kSectionHeader || length < 28 || length > d.size()) {
    return absl::InvalidArgumentError(absl::StrFormat("%s is not a .scap capture file", path));
  }
  if (magic != kByteOrderMagic) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s is not a .scap capture file of this machine's byte order (magic 0x%08x)", path, magic));
  }
  if (major > kMajorVersion) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s is a .scap file of format %u, newer than the %u this build reads", path,
                        major, kMajorVersion));
  }
  r->next_block_ = length;
  r->info_.schema_version = KESTREL_SCHEMA_VERSION;
  r->info_.writer = absl::StrFormat("libscap (.scap format %u.%u)", major, [&] {
    uint16_t minor = 0;
    std::memcpy(&minor, d.data() + 14, 2);
    return minor;
  }());
  r->ReadMetadata();
  return r;
}

bool ScapReader::Fail(uint64_t offset, std::string what) {
  if (!inflate_note_.empty()) {
    absl::StrAppend(&what, " (", inflate_note_, "; offsets are in the inflated data)");
  } else if (!inflated_.empty()) {
    absl::StrAppend(&what, " (offsets are in the inflated data)");
  }
  damage_ =
      Damage{offset, data_.size() - std::min<uint64_t>(offset, data_.size()), std::move(what)};
  return false;
}

bool ScapReader::ReadBlock(size_t offset, uint32_t& type, std::span<const uint8_t>& body) {
  const size_t left = data_.size() - offset;
  if (left < 8) {
    return Fail(offset, absl::StrFormat("the block header at byte %u is cut short (%u of 8 bytes)",
                                        offset, left));
  }
  uint32_t length = 0;
  std::memcpy(&type, data_.data() + offset, 4);
  std::memcpy(&length, data_.data() + offset + 4, 4);
  if (length < kBlockOverhead) {
    return Fail(offset, absl::StrFormat("the block at byte %u claims %u bytes, fewer than a "
                                        "block's %u",
                                        offset, length, kBlockOverhead));
  }
  if (length > left) {
    return Fail(offset, absl::StrFormat("the block at byte %u is cut short (%u of %u bytes)",
                                        offset, left, length));
  }
  uint32_t trailer = 0;
  std::memcpy(&trailer, data_.data() + offset + length - 4, 4);
  if (trailer != length) {
    return Fail(offset, absl::StrFormat("the block at byte %u ends with length %u, not its %u",
                                        offset, trailer, length));
  }
  body = data_.subspan(offset + 8, length - kBlockOverhead);
  next_block_ = offset + length;
  return true;
}

bool ScapReader::ReadMetadata() {
  uint64_t first_event_ts = 0;
  while (next_block_ < data_.size()) {
    const size_t offset = next_block_;
    uint32_t type = 0;
    std::span<const uint8_t> body;
    if (!ReadBlock(offset, type, body)) break;
    if (IsEventBlock(type)) {
      next_block_ = offset;  // the events start here
      // The first event's time: the clock's origin if the machine info
      // gave none.
      const size_t at = 2 + (HasFlags(type) ? 4 : 0);
      if (body.size() >= at + 8) std::memcpy(&first_event_ts, body.data() + at, 8);
      break;
    }
    if (type == kMachineInfo || type == kMachineInfoInt) {
      ReadMachineInfo(body);
    } else if (ProcessListVersion(type) != 0) {
      if (!ReadProcessList(offset, type, body)) break;
    } else if (type == kFdList || type == kFdListInt || type == kFdListV2) {
      if (!ReadFdList(offset, type, body)) break;
    }
    // Interface and user lists, and blocks of later writers: skipped.
  }
  // Records carry time since boot, the file wall time: the boot time the
  // machine info gives, else the first event's second.
  if (info_.boot_time_ns == 0 || (first_event_ts != 0 && info_.boot_time_ns > first_event_ts)) {
    info_.boot_time_ns = first_event_ts / 1000000000 * 1000000000;
  }
  // The snapshot: every thread, its parent named by process (libscap's
  // ptid is the parent thread), then every descriptor.
  for (const ThreadInfo& t : threads_) pid_of_tid_[t.tid] = t.tgid;
  const uint64_t ts = first_event_ts > info_.boot_time_ns ? first_event_ts - info_.boot_time_ns : 0;
  for (ThreadInfo& t : threads_) {
    if (auto it = pid_of_tid_.find(t.ppid); it != pid_of_tid_.end()) t.ppid = it->second;
    snapshot_.AddThread(t, ts);
  }
  for (const auto& [tid, fd] : fds_) {
    snapshot_.AddFd(static_cast<uint32_t>(tid), ProcessOf(tid), fd, ts);
  }
  threads_.clear();
  fds_.clear();
  return !damage_;
}

void ScapReader::ReadMachineInfo(std::span<const uint8_t> body) {
  // num_cpus u32, memory u64, max_pid u64, hostname[128], boot_ts_epoch u64 ...
  Cursor c(body);
  uint32_t cpus = 0;
  uint64_t memory = 0, max_pid = 0, boot = 0;
  std::span<const uint8_t> host;
  if (!c.Read(cpus) || !c.Read(memory) || !c.Read(max_pid) || !c.Bytes(128, host)) return;
  info_.cpu_count = cpus;
  info_.hostname = CString(AsText(host));
  if (c.Read(boot)) info_.boot_time_ns = boot;
}

bool ScapReader::ReadProcessList(size_t offset, uint32_t type, std::span<const uint8_t> body) {
  const int v = ProcessListVersion(type);
  Cursor c(body);
  while (c.left() >= 4) {
    const size_t start = c.at();
    uint32_t sub_len = 0;
    if (v >= 9 && (!c.Read(sub_len) || sub_len < 4 || sub_len > body.size() - start)) {
      return Fail(offset, absl::StrFormat("a process entry in the block at byte %u has a bad "
                                          "length",
                                          offset));
    }
    uint64_t tid = 0, pid = 0, ptid = 0, sid = 0, vpgid = 0, fdlimit = 0, pf = 0;
    int64_t vtid = -1, vpid = -1, pgid = -1;
    uint32_t flags = 0, uid = 0, gid = 0, vm = 0;
    std::string comm, exe, exepath, args, cwd, env, cgroups, root;
    c.Read(tid);
    c.Read(pid);
    c.Read(ptid);
    if (v >= 6) c.Read(sid);
    if (v >= 8) c.Read(vpgid);
    c.String(comm);
    c.String(exe);
    if (v >= 7) c.String(exepath);
    c.String(args);
    c.String(cwd);
    c.Read(fdlimit);
    c.Read(flags);
    c.Read(uid);
    c.Read(gid);
    if (v >= 2) {
      c.Read(vm);  // vmsize, vmrss, vmswap (KiB), pfmajor, pfminor
      c.Read(vm);
      c.Read(vm);
      c.Read(pf);
      c.Read(pf);
    }
    if (v >= 3) c.String(env);
    if (v >= 4) {
      c.Read(vtid);
      c.Read(vpid);
      c.String(cgroups);
    }
    if (v >= 5) c.String(root);
    ThreadInfo t;
    t.loginuid = UINT32_MAX;
    if (sub_len != 0 && c.ok()) {
      // Fields appended since (each there when the entry is long enough);
      // libs 0.10 put two of them first, which a short rest gives away.
      size_t read = c.at() - start;
      auto fits = [&](size_t n) { return read + n <= sub_len; };
      auto take = [&](auto& field) {
        if (fits(sizeof(field)) && c.Read(field)) read += sizeof(field);
      };
      uint64_t pidns_start = 0, caps[3] = {}, ino = 0, ctime = 0, mtime = 0;
      uint32_t tty = 0, loginuid = UINT32_MAX;
      uint8_t writable = 0, upper = 0, memfd = 0, lower = 0;
      if (read <= sub_len && sub_len - read > 29) {
        take(pidns_start);
        take(tty);
      }
      take(loginuid);
      take(writable);
      take(caps[0]);
      take(caps[1]);
      take(caps[2]);
      take(upper);
      take(ino);
      take(ctime);
      take(mtime);
      take(memfd);
      take(lower);
      take(pgid);
      if (read > sub_len) {
        return Fail(offset, absl::StrFormat("a process entry in the block at byte %u runs past "
                                            "its %u bytes",
                                            offset, sub_len));
      }
      c.SkipTo(start + sub_len);
      t.tty = tty;
      t.loginuid = loginuid;
      t.cap_inheritable = caps[0];
      t.cap_permitted = caps[1];
      t.cap_effective = caps[2];
      t.exe_ino = ino;
      t.exe_ctime_ns = ctime;
      t.exe_mtime_ns = mtime;
      t.exe_writable = writable != 0;
      t.exe_upper_layer = upper != 0;
      t.exe_lower_layer = lower != 0;
      t.exe_from_memfd = memfd != 0;
      t.pidns_init_start_ns = pidns_start;  // libscap's is an epoch time
    }
    if (!c.ok()) {
      return Fail(offset, absl::StrFormat("a process entry in the block at byte %u runs past the "
                                          "block",
                                          offset));
    }
    t.tid = static_cast<uint32_t>(tid);
    t.tgid = static_cast<uint32_t>(pid);
    t.ppid = static_cast<uint32_t>(ptid);  // a thread: made its process once all are read
    if (vtid > 0) t.vtid = static_cast<uint32_t>(vtid);
    if (vpid > 0) t.vpid = static_cast<uint32_t>(vpid);
    t.sid = static_cast<uint32_t>(sid);
    if (pgid > 0) t.pgid = static_cast<uint32_t>(pgid);
    t.comm = CString(comm);
    t.exe = CString(exe);
    t.exepath = CString(exepath);
    t.args = SplitNulSeparated(args);
    t.env = SplitNulSeparated(env);
    t.cwd = CString(cwd);
    if (t.cwd.size() > 1 && t.cwd.back() == '/') t.cwd.pop_back();
    t.root = root.empty() ? "/" : CString(root);
    t.uid = t.euid = uid;
    t.gid = t.egid = gid;
    std::vector<std::string> entries = SplitNulSeparated(cgroups);
    std::vector<std::string_view> paths;
    for (const std::string& e : entries) {
      if (const size_t eq = e.find('='); eq != std::string::npos) {
        paths.push_back(std::string_view(e).substr(eq + 1));
      }
    }
    if (!paths.empty()) t.cgroup = std::string(state::ContainerCgroupPath(paths));
    if (threads_.size() < kMaxTrackedThreads * 4) threads_.push_back(std::move(t));
  }
  return true;
}

bool ScapReader::ReadFdList(size_t offset, uint32_t type, std::span<const uint8_t> body) {
  Cursor c(body);
  uint64_t tid = 0;
  if (!c.Read(tid)) {
    return Fail(offset, absl::StrFormat("the fd list block at byte %u is too short", offset));
  }
  while (c.left() >= 4) {
    const size_t start = c.at();
    uint32_t sub_len = 0;
    if (type == kFdListV2 && (!c.Read(sub_len) || sub_len < 4 || sub_len > body.size() - start)) {
      return Fail(offset,
                  absl::StrFormat("a descriptor in the block at byte %u has a bad length", offset));
    }
    int64_t fd = 0;
    uint64_t ino = 0;
    uint8_t kind = 0;
    c.Read(fd);
    c.Read(ino);
    c.Read(kind);
    FdInfo info;
    info.fd = fd;
    info.ino = ino;
    std::string name;
    switch (kind) {
      case kFdIpv4Sock:
      case kFdIpv6Sock: {
        const bool v4 = kind == kFdIpv4Sock;
        std::span<const uint8_t> sip, dip;
        uint16_t sport = 0, dport = 0;
        uint8_t proto = 0;
        c.Bytes(v4 ? 4 : 16, sip);
        c.Bytes(v4 ? 4 : 16, dip);
        c.Read(sport);
        c.Read(dport);
        c.Read(proto);
        if (!c.ok()) break;
        info.type = v4 ? FdType::kIpv4Socket : FdType::kIpv6Socket;
        info.family = v4 ? KESTREL_AF_INET : KESTREL_AF_INET6;
        info.l4proto = proto;
        info.sock_type = proto == IPPROTO_TCP ? SOCK_STREAM : SOCK_DGRAM;
        info.local =
            SocketAddress{info.family, InetAddress(v4 ? AF_INET : AF_INET6, sip.data()), sport};
        info.remote =
            SocketAddress{info.family, InetAddress(v4 ? AF_INET : AF_INET6, dip.data()), dport};
        info.connected = true;
        info.name = absl::StrCat(info.local.address, ":", info.local.port, "->",
                                 info.remote.address, ":", info.remote.port);
        break;
      }
      case kFdIpv4ServSock:
      case kFdIpv6ServSock: {
        const bool v4 = kind == kFdIpv4ServSock;
        std::span<const uint8_t> ip;
        uint16_t port = 0;
        uint8_t proto = 0;
        c.Bytes(v4 ? 4 : 16, ip);
        c.Read(port);
        c.Read(proto);
        if (!c.ok()) break;
        info.type = v4 ? FdType::kIpv4Socket : FdType::kIpv6Socket;
        info.family = v4 ? KESTREL_AF_INET : KESTREL_AF_INET6;
        info.l4proto = proto;
        info.sock_type = proto == IPPROTO_TCP ? SOCK_STREAM : SOCK_DGRAM;
        info.local =
            SocketAddress{info.family, InetAddress(v4 ? AF_INET : AF_INET6, ip.data()), port};
        info.is_server = true;
        info.name = absl::StrCat(info.local.address, ":", info.local.port);
        break;
      }
      case kFdUnixSock: {
        uint64_t source = 0, dest = 0;
        c.Read(source);
        c.Read(dest);
        c.String(name);
        info.type = FdType::kUnixSocket;
        info.family = KESTREL_AF_UNIX;
        info.name = CString(name);
        info.local = SocketAddress{KESTREL_AF_UNIX, info.name, 0};
        break;
      }
      case kFdFileV2: {
        uint32_t flags = 0, dev = 0;
        c.Read(flags);
        c.String(name);
        if (sub_len != 0 && c.ok() && c.at() - start + 4 <= sub_len) c.Read(dev);
        info.type = FdType::kFile;
        info.name = CString(name);
        info.open_flags = OpenFlagsFromScap(flags);
        info.dev = dev;
        break;
      }
      case kFdUnknown:
        break;
      case kFdFile:
      case kFdDirectory:
      case kFdFifo:
      case kFdEvent:
      case kFdUnsupported:
      case kFdSignalfd:
      case kFdEventpoll:
      case kFdInotify:
      case kFdTimerfd:
      case kFdNetlink:
      case kFdBpf:
      case kFdUserfaultfd:
      case kFdIoUring:
      case kFdMemfd:
      case kFdPidfd: {
        c.String(name);
        info.name = CString(name);
        static constexpr FdType kTypes[] = {
            FdType::kUnknown,    FdType::kFile,       FdType::kDirectory,   FdType::kIpv4Socket,
            FdType::kIpv6Socket, FdType::kIpv4Socket, FdType::kIpv6Socket,  FdType::kPipe,
            FdType::kUnixSocket, FdType::kEvent,      FdType::kUnknown,     FdType::kSignalfd,
            FdType::kEventpoll,  FdType::kInotify,    FdType::kTimerfd,     FdType::kNetlinkSocket,
            FdType::kFile,       FdType::kBpf,        FdType::kUserfaultfd, FdType::kIoUring,
            FdType::kMemfd,      FdType::kPidfd,
        };
        info.type = kTypes[kind];
        break;
      }
      default:
        // A later writer's kind: its bytes are unknown; sub_len skips them.
        info.name = absl::StrFormat("unknown-type:[%d]", kind);
        break;
    }
    if (sub_len != 0 && c.ok()) {
      if (c.at() - start > sub_len) {
        return Fail(offset, absl::StrFormat("a descriptor in the block at byte %u runs past its "
                                            "%u bytes",
                                            offset, sub_len));
      }
      c.SkipTo(start + sub_len);
    }
    if (!c.ok()) {
      return Fail(offset, absl::StrFormat(
                              "a descriptor in the block at byte %u runs past the block", offset));
    }
    if (kind != kFdUnknown && fds_.size() < kMaxTrackedThreads * 16) {
      fds_.emplace_back(tid, std::move(info));
    }
  }
  return true;
}

uint32_t ScapReader::ProcessOf(uint64_t tid) const {
  auto it = pid_of_tid_.find(tid);
  return it != pid_of_tid_.end() ? it->second : static_cast<uint32_t>(tid);
}

void ScapReader::Count(uint16_t type) {
  std::span<const ScapEventInfo> events = ScapEvents();
  if (type >= events.size()) {
    ++unknown_[absl::StrFormat("type %u", type)];
    return;
  }
  const ScapEventInfo& e = events[type];
  ++unknown_[e.name == "NA" ? std::string(e.id) : std::string(e.name)];
}

bool ScapReader::ParseEvent(size_t offset, uint32_t block_type, std::span<const uint8_t> body,
                            Event& out) {
  // cpu u16, [flags u32], then the event: ts u64, tid u64, len u32, type
  // u16, nparams u32 (V2 blocks only), parameter lengths, parameters.
  const size_t at = 2 + (HasFlags(block_type) ? 4 : 0);
  const bool v2 = IsV2(block_type);
  const size_t header = v2 ? 26 : 22;
  if (body.size() < at + header) {
    return Fail(offset,
                absl::StrFormat("the event block at byte %u is too short for an event", offset));
  }
  const std::span<const uint8_t> ev = body.subspan(at);
  uint32_t len = 0, nparams = 0;
  std::memcpy(&out.ts, ev.data(), 8);
  std::memcpy(&out.tid, ev.data() + 8, 8);
  std::memcpy(&len, ev.data() + 16, 4);
  std::memcpy(&out.type, ev.data() + 20, 2);
  if (v2) std::memcpy(&nparams, ev.data() + 22, 4);
  out.params.clear();
  std::span<const ScapEventInfo> events = ScapEvents();
  if (out.type >= events.size()) return true;  // a later libscap's event: counted, skipped
  if (len < header || len > ev.size()) {
    return Fail(offset, absl::StrFormat("the event in the block at byte %u claims %u bytes, "
                                        "outside [%u, %u]",
                                        offset, len, header, ev.size()));
  }
  const ScapEventInfo& info = events[out.type];
  const size_t len_size = v2 && (info.flags & kScapLargePayload) ? 4 : 2;
  auto param_len = [&](size_t i) -> uint64_t {
    if (len_size == 4) {
      uint32_t n;
      std::memcpy(&n, ev.data() + header + 4 * i, 4);
      return n;
    }
    uint16_t n;
    std::memcpy(&n, ev.data() + header + 2 * i, 2);
    return n;
  };
  if (!v2) {
    // Old blocks do not say how many parameters an event has: the count
    // whose lengths add up to the event's, from the table's down (as
    // libscap finds it).
    bool found = false;
    for (int n = info.nparams; n >= 0 && !found; --n) {
      const uint64_t lengths_end = header + 2 * static_cast<uint64_t>(n);
      if (lengths_end > len) continue;
      uint64_t end = lengths_end;
      for (int i = 0; i < n; ++i) end += param_len(static_cast<size_t>(i));
      if (end == len) {
        nparams = static_cast<uint32_t>(n);
        found = true;
      }
    }
    if (!found) {
      return Fail(offset, absl::StrFormat("the event in the block at byte %u has parameter "
                                          "lengths that do not add up to its %u bytes",
                                          offset, len));
    }
  }
  const uint64_t lengths_end = header + static_cast<uint64_t>(nparams) * len_size;
  if (lengths_end > len) {
    return Fail(offset, absl::StrFormat("the event in the block at byte %u cannot hold %u "
                                        "parameter lengths in %u bytes",
                                        offset, nparams, len));
  }
  uint64_t p = lengths_end;
  // Parameters past the table's are a later libscap's: checked, not kept.
  out.params.reserve(std::min<uint32_t>(nparams, info.nparams));
  for (uint32_t i = 0; i < nparams; ++i) {
    const uint64_t n = param_len(i);
    if (n > len - p) {
      return Fail(offset, absl::StrFormat("parameter %u of the event in the block at byte %u "
                                          "runs past its %u bytes",
                                          i, offset, len));
    }
    if (i < info.nparams) out.params.push_back(ev.subspan(p, n));
    p += n;
  }
  return true;
}

const kestrel_record_header* ScapReader::Next(bool* snapshot) {
  const std::span<const uint8_t> snap = snapshot_.bytes();
  if (snapshot_at_ < snap.size()) {
    kestrel_record_header h;
    std::memcpy(&h, snap.data() + snapshot_at_, sizeof(h));
    const auto* record = reinterpret_cast<const kestrel_record_header*>(snap.data() + snapshot_at_);
    snapshot_at_ += (h.len + 7) & ~size_t{7};
    ++records_;
    if (snapshot != nullptr) *snapshot = true;
    return record;
  }
  Event event;
  while (!damage_ && next_block_ < data_.size()) {
    const size_t offset = next_block_;
    uint32_t type = 0;
    std::span<const uint8_t> body;
    if (!ReadBlock(offset, type, body)) break;
    if (!IsEventBlock(type)) continue;  // process lists between events: not read
    if (!ParseEvent(offset, type, body, event)) break;
    uint16_t cpu = 0;
    std::memcpy(&cpu, body.data(), 2);
    const kestrel_record_header* record = Convert(event);
    if (record == nullptr) continue;
    auto* h = reinterpret_cast<kestrel_record_header*>(record_.data());
    h->cpu = cpu;
    ++records_;
    ++known_;
    if (snapshot != nullptr) *snapshot = false;
    return record;
  }
  if (!damage_ && !inflate_note_.empty()) {
    Fail(data_.size(),
         absl::StrFormat("the file ends at byte %u of its inflated data", data_.size()));
  }
  return nullptr;
}

namespace {

// One record's parameters as they are gathered, then laid out.
class RecordParams {
 public:
  explicit RecordParams(size_t n) : params_(n), present_(n, false) {}
  void Set(size_t i, std::string bytes) {
    params_[i] = std::move(bytes);
    present_[i] = true;
  }
  template <typename T>
  void SetInt(size_t i, T v) {
    std::string b(sizeof(T), '\0');
    std::memcpy(b.data(), &v, sizeof(T));
    Set(i, std::move(b));
  }
  bool present(size_t i) const { return present_[i]; }
  const std::string& at(size_t i) const { return params_[i]; }

  // Lays the record out in `out` (8-byte words); strings and buffers are
  // cut to what a record holds.
  void Write(std::vector<uint64_t>& out, kestrel_record_header h, const EventInfo& event) {
    size_t budget = KESTREL_MAX_RECORD_BYTES - sizeof(h) - 2 * params_.size();
    for (size_t i = 0; i < params_.size(); ++i) {
      std::string& p = params_[i];
      const kestrel_param_type type = event.params[i].type;
      size_t cap = type == KPT_PATH ? KESTREL_MAX_PATH : KESTREL_MAX_BUFFER_PARAM_BYTES;
      cap = std::min(cap, budget);
      if (p.size() > cap) {
        p.resize(cap);
        if ((type == KPT_PATH || type == KPT_CHARBUF) && !p.empty()) p.back() = '\0';
        h.flags |= KESTREL_RECORD_TRUNCATED;
      }
      budget -= p.size();
    }
    size_t len = sizeof(h) + 2 * params_.size();
    for (const std::string& p : params_) len += p.size();
    h.len = static_cast<uint32_t>(len);
    h.nparams = static_cast<uint8_t>(params_.size());
    out.assign((len + 7) / 8, 0);
    auto* at = reinterpret_cast<uint8_t*>(out.data());
    std::memcpy(at, &h, sizeof(h));
    at += sizeof(h);
    for (const std::string& p : params_) {
      const auto n = static_cast<uint16_t>(p.size());
      std::memcpy(at, &n, 2);
      at += 2;
    }
    for (const std::string& p : params_) {
      if (!p.empty()) std::memcpy(at, p.data(), p.size());
      at += p.size();
    }
  }

 private:
  std::vector<std::string> params_;
  std::vector<bool> present_;
};

}  // namespace

const kestrel_record_header* ScapReader::Convert(const Event& event) {
  const std::vector<Mapping>& mappings = Mappings();
  if (event.type >= mappings.size()) {
    Count(event.type);
    return nullptr;
  }
  const Mapping& m = mappings[event.type];
  const ScapEventInfo& info = ScapEvents()[event.type];
  if (m.target == Target::kEnterOfKnown) {
    // Kept for the exit, which may lack what only the enter carries.
    if (enters_.size() >= kMaxTrackedThreads && !enters_.contains(event.tid)) enters_.clear();
    Enter& e = enters_[event.tid];
    e.type = event.type;
    e.bytes.clear();
    e.params.clear();
    for (std::span<const uint8_t> p : event.params) {
      e.params.emplace_back(static_cast<uint32_t>(e.bytes.size()), static_cast<uint32_t>(p.size()));
      e.bytes.insert(e.bytes.end(), p.begin(), p.end());
    }
    return nullptr;
  }
  if (m.target == Target::kNone) {
    if (m.counted) Count(event.type);
    return nullptr;
  }
  // The thread's enter event of the same syscall, if it came right before.
  const Enter* enter = nullptr;
  if (auto it = enters_.find(event.tid); it != enters_.end()) {
    if (ScapEvents()[it->second.type].name == info.name) enter = &it->second;
  }
  auto enter_param = [&](std::string_view name,
                         uint8_t& type) -> std::optional<std::span<const uint8_t>> {
    if (enter == nullptr) return std::nullopt;
    std::span<const ScapParamInfo> params = ScapEventParams(ScapEvents()[enter->type]);
    for (size_t i = 0; i < params.size() && i < enter->params.size(); ++i) {
      if (params[i].name == name) {
        type = params[i].type;
        return std::span<const uint8_t>(enter->bytes)
            .subspan(enter->params[i].first, enter->params[i].second);
      }
    }
    return std::nullopt;
  };

  kestrel_record_header h{};
  h.ts_ns = event.ts > info_.boot_time_ns ? event.ts - info_.boot_time_ns : 0;
  h.tid = static_cast<uint32_t>(event.tid);
  h.version = KESTREL_SCHEMA_VERSION;

  if (m.target == Target::kGeneric) {
    std::span<const ScapParamInfo> params = ScapEventParams(info);
    std::optional<int64_t> native;
    for (size_t i = 0; i < params.size() && i < event.params.size(); ++i) {
      if (params[i].name == "nativeID") native = ScapInteger(params[i].type, event.params[i]);
    }
    uint8_t type = 0;
    if (!native) {
      if (auto p = enter_param("nativeID", type)) native = ScapInteger(type, *p);
    }
    enters_.erase(event.tid);
    if (!native) {
      Count(event.type);
      return nullptr;
    }
    kestrel_generic_record r{};
    r.hdr = h;
    r.hdr.tgid = ProcessOf(event.tid);
    r.hdr.len = sizeof(r);
    r.hdr.type = KESTREL_EVT_GENERIC_SYSCALL;
    r.hdr.nparams = KESTREL_GENERIC_NPARAMS;
    for (uint16_t& l : r.param_len) l = 8;
    r.syscall_id = static_cast<uint64_t>(*native);
    record_.assign((sizeof(r) + 7) / 8, 0);
    std::memcpy(record_.data(), &r, sizeof(r));
    return reinterpret_cast<const kestrel_record_header*>(record_.data());
  }

  const EventInfo& target = *m.event;
  const std::span<const ScapParamInfo> scap_params = ScapEventParams(info);
  RecordParams out(target.params.size());
  const bool inbound = InboundTuple(target.syscall);
  for (size_t i = 0; i < target.params.size(); ++i) {
    const ParamInfo& p = target.params[i];
    std::optional<std::span<const uint8_t>> raw;
    uint8_t scap_type = 0;
    const int j = m.scap_index[i];
    if (j >= 0 && static_cast<size_t>(j) < event.params.size()) {
      raw = event.params[static_cast<size_t>(j)];
      scap_type = scap_params[static_cast<size_t>(j)].type;
    } else {
      raw = enter_param(p.name, scap_type);
    }
    if (!raw) continue;
    const size_t fixed = kestrel_param_fixed_size(p.type);
    if (fixed != 0) {
      std::optional<int64_t> v = ScapInteger(scap_type, *raw);
      if (!v) continue;
      if (j >= 0) v = DeriveFromScap(m.derived[i], *v);
      if (p.flag_set == KFS_OPEN_FLAGS) v = OpenFlagsFromScap(static_cast<uint64_t>(*v));
      if (p.flag_set == KFS_CLONE_FLAGS) {
        v = static_cast<int64_t>(CloneFlagsFromScap(static_cast<uint64_t>(*v)));
      }
      if (fixed == 8) {
        out.SetInt<int64_t>(i, *v);
      } else {
        out.SetInt<uint32_t>(i, static_cast<uint32_t>(*v));
      }
      continue;
    }
    switch (p.type) {
      case KPT_SOCKTUPLE:
        if (scap_type == kScapSocktuple) {
          if (std::optional<std::string> t = TupleFromScap(*raw, inbound))
            out.Set(i, *std::move(t));
        }
        break;
      case KPT_SOCKADDR:
      case KPT_FDLIST:
      case KPT_BYTEBUF:
      case KPT_CHARBUF_ARRAY:
        out.Set(i, std::string(AsText(*raw)));
        break;
      case KPT_PATH:
      case KPT_CHARBUF:
        if (!IsNumericScapType(scap_type)) out.Set(i, std::string(AsText(*raw)));
        break;
      default:
        break;
    }
  }
  // What the clone family's caller record says of the child, which libscap
  // keeps only as the return value.
  const auto int_param = [&](std::string_view name) -> std::optional<int64_t> {
    const int i = target.ParamIndex(name);
    if (i < 0 || !out.present(static_cast<size_t>(i))) return std::nullopt;
    const std::string& b = out.at(static_cast<size_t>(i));
    if (b.size() == 8) {
      int64_t v;
      std::memcpy(&v, b.data(), 8);
      return v;
    }
    if (b.size() == 4) {
      uint32_t v;
      std::memcpy(&v, b.data(), 4);
      return v;
    }
    return std::nullopt;
  };
  // The return value, -1 when the file has none.
  const int64_t res =
      target.return_index >= 0
          ? int_param(target.params[static_cast<size_t>(target.return_index)].name).value_or(-1)
          : -1;
  const int child_tid = target.ParamIndex("child_tid");
  const int child_pid = target.ParamIndex("child_pid");
  uint32_t tgid = ProcessOf(event.tid);
  const int64_t pid = int_param("pid").value_or(0);
  if (pid > 0 && res == 0) {
    // An exec's, or a clone child's own record: the process it is in.
    tgid = static_cast<uint32_t>(pid);
    if (pid_of_tid_.size() < kMaxTrackedThreads * 4) pid_of_tid_[event.tid] = tgid;
  }
  if (child_tid >= 0 && child_pid >= 0 && res > 0) {
    const bool thread = int_param("flags").value_or(0) & CLONE_THREAD;
    const int64_t child_process = thread ? tgid : res;
    if (!out.present(static_cast<size_t>(child_tid))) out.SetInt<int64_t>(child_tid, res);
    if (!out.present(static_cast<size_t>(child_pid))) out.SetInt<int64_t>(child_pid, child_process);
    if (pid_of_tid_.size() < kMaxTrackedThreads * 4) {
      pid_of_tid_[static_cast<uint64_t>(res)] = static_cast<uint32_t>(child_process);
    }
  }
  if (m.target == Target::kProcessExit) pid_of_tid_.erase(event.tid);
  enters_.erase(event.tid);
  h.tgid = tgid;
  h.type = target.type;
  out.Write(record_, h, target);
  return reinterpret_cast<const kestrel_record_header*>(record_.data());
}

}  // namespace kestrel::engine::capture_file
