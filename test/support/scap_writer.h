// Writes small libscap .scap files for tests, byte by byte as libscap lays
// them out (userspace/libscap/scap_savefile.h in falcosecurity/libs): a
// section header block, then machine info, process list (V9), fd list (V2)
// and event (EV V2, or V1 without nparams) blocks. Every block is {u32
// type, u32 total length, body padded to 4, u32 total length}.
#ifndef KESTREL_TEST_SUPPORT_SCAP_WRITER_H_
#define KESTREL_TEST_SUPPORT_SCAP_WRITER_H_

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::test {

// libscap's event types the tests use (enum ppm_event_code).
enum ScapEventType : uint16_t {
  kScapGenericE = 0,
  kScapGenericX = 1,
  kScapCloseX = 5,
  kScapReadX = 7,
  kScapConnectE = 22,
  kScapConnectX = 23,
  kScapFutexE = 64,
  kScapFutexX = 65,
  kScapOpenatOldE = 102,  // PPME_SYSCALL_OPENAT_E: dirfd, name, flags, mode
  kScapOpenatOldX = 103,  // PPME_SYSCALL_OPENAT_X: fd only
  kScapSwitchE = 152,
  kScapProcexitE = 186,
  kScapCloneX = 223,     // PPME_SYSCALL_CLONE_20_X
  kScapAcceptX = 247,    // PPME_SOCKET_ACCEPT_5_X
  kScapExecveE = 292,    // PPME_SYSCALL_EXECVE_19_E
  kScapExecveX = 293,    // PPME_SYSCALL_EXECVE_19_X
  kScapUnlinkatX = 303,  // PPME_SYSCALL_UNLINKAT_2_X
  kScapOpenatE = 306,    // PPME_SYSCALL_OPENAT_2_E
  kScapOpenatX = 307,    // PPME_SYSCALL_OPENAT_2_X
};

// libscap's flag encodings the tests use.
inline constexpr uint32_t kPpmORdonly = 1 << 0, kPpmOWronly = 1 << 1, kPpmOCreat = 1 << 2,
                          kPpmOTrunc = 1 << 8, kPpmOCloexec = 1 << 12;
inline constexpr uint32_t kPpmClThread = 1 << 13, kPpmClVm = 1 << 15, kPpmClFiles = 1 << 0;

// One parameter's bytes.
template <typename T>
std::string ScapInt(T v) {
  std::string b(sizeof(T), '\0');
  std::memcpy(b.data(), &v, sizeof(T));
  return b;
}
// A string parameter: its bytes and the NUL.
inline std::string ScapStr(std::string_view s) { return std::string(s) + '\0'; }
// NUL-separated entries, each with its NUL (args, env, cgroups).
inline std::string ScapList(const std::vector<std::string>& entries) {
  std::string out;
  for (const std::string& e : entries) out += e + '\0';
  return out;
}
// An IPv4 tuple as libscap writes it: family 2, source address and port,
// destination address and port (addresses in network order, ports host).
inline std::string ScapTuple4(const uint8_t (&sip)[4], uint16_t sport, const uint8_t (&dip)[4],
                              uint16_t dport) {
  std::string b(1, '\x02');
  b.append(reinterpret_cast<const char*>(sip), 4);
  b += ScapInt<uint16_t>(sport);
  b.append(reinterpret_cast<const char*>(dip), 4);
  b += ScapInt<uint16_t>(dport);
  return b;
}
inline std::string ScapSockaddr4(const uint8_t (&ip)[4], uint16_t port) {
  std::string b(1, '\x02');
  b.append(reinterpret_cast<const char*>(ip), 4);
  b += ScapInt<uint16_t>(port);
  return b;
}

struct ScapProcess {
  uint64_t tid = 0, pid = 0, ptid = 0, sid = 0, vpgid = 0;
  std::string comm{}, exe{}, exepath{};
  std::vector<std::string> args{};  // argv[1..]
  std::string cwd = "/";
  uint64_t fdlimit = 1024;
  uint32_t flags = 0, uid = 0, gid = 0;
  std::vector<std::string> env{};
  int64_t vtid = -1, vpid = -1;
  std::vector<std::string> cgroups{};  // "subsys=path"
  std::string root = "/";
  uint32_t loginuid = UINT32_MAX;
  int64_t pgid = -1;
};

// libscap's descriptor kinds (scap_fd_type) the tests use.
enum ScapFdKind : uint8_t { kScapFdIpv4Sock = 3, kScapFdUnixSock = 8, kScapFdFileV2 = 16 };

struct ScapFd {
  int64_t fd = 0;
  uint64_t ino = 0;
  uint8_t kind = kScapFdFileV2;
  std::string name{};
  uint32_t open_flags = 0;  // PPM_O_*
  uint32_t dev = 0;
  uint8_t sip[4] = {}, dip[4] = {};
  uint16_t sport = 0, dport = 0;
  uint8_t l4proto = 6;
};

class ScapWriter {
 public:
  ScapWriter& SectionHeader(uint16_t major = 1, uint16_t minor = 2) {
    std::string b = ScapInt<uint32_t>(0x1A2B3C4D) + ScapInt<uint16_t>(major) +
                    ScapInt<uint16_t>(minor) + ScapInt<uint64_t>(UINT64_MAX);
    return Block(0x0A0D0D0A, b);
  }
  ScapWriter& MachineInfo(std::string_view hostname, uint64_t boot_ts_epoch, uint32_t cpus) {
    std::string host(128, '\0');
    host.replace(0, hostname.size(), hostname);
    std::string b = ScapInt<uint32_t>(cpus) + ScapInt<uint64_t>(1 << 30) +
                    ScapInt<uint64_t>(32768) + host + ScapInt<uint64_t>(boot_ts_epoch) +
                    ScapInt<uint64_t>(0) + ScapInt<uint64_t>(0) + ScapInt<uint64_t>(0);
    return Block(0x201, b);
  }
  // A PL_BLOCK_TYPE_V9 block.
  ScapWriter& ProcessList(const std::vector<ScapProcess>& processes) {
    std::string b;
    for (const ScapProcess& p : processes) {
      std::string e =
          ScapInt(p.tid) + ScapInt(p.pid) + ScapInt(p.ptid) + ScapInt(p.sid) + ScapInt(p.vpgid) +
          Str16(p.comm) + Str16(p.exe) + Str16(p.exepath) + Str16(ScapList(p.args)) + Str16(p.cwd) +
          ScapInt(p.fdlimit) + ScapInt(p.flags) + ScapInt(p.uid) + ScapInt(p.gid) +
          ScapInt<uint32_t>(1000) + ScapInt<uint32_t>(500) + ScapInt<uint32_t>(0) +
          ScapInt<uint64_t>(1) + ScapInt<uint64_t>(2) + Str16(ScapList(p.env)) + ScapInt(p.vtid) +
          ScapInt(p.vpid) + Str16(ScapList(p.cgroups)) + Str16(p.root) +
          ScapInt<uint64_t>(0) /* pidns_init_start_ts */ + ScapInt<uint32_t>(0) /* tty */ +
          ScapInt(p.loginuid) + ScapInt<uint8_t>(0) /* exe_writable */ + ScapInt<uint64_t>(0) +
          ScapInt<uint64_t>(0) + ScapInt<uint64_t>(0) /* caps */ +
          ScapInt<uint8_t>(0) /* exe_upper_layer */ + ScapInt<uint64_t>(77) + ScapInt<uint64_t>(0) +
          ScapInt<uint64_t>(0) /* exe ino, ctime, mtime */ + ScapInt<uint8_t>(0) +
          ScapInt<uint8_t>(0) /* memfd, lower layer */ + ScapInt(p.pgid);
      b += ScapInt<uint32_t>(static_cast<uint32_t>(e.size() + 4)) + e;
    }
    return Block(0x215, b);
  }
  // An FDL_BLOCK_TYPE_V2 block: the descriptors of thread `tid`'s process.
  ScapWriter& FdList(uint64_t tid, const std::vector<ScapFd>& fds) {
    std::string b = ScapInt(tid);
    for (const ScapFd& f : fds) {
      std::string e = ScapInt(f.fd) + ScapInt(f.ino) + ScapInt(f.kind);
      if (f.kind == kScapFdIpv4Sock) {
        e.append(reinterpret_cast<const char*>(f.sip), 4);
        e.append(reinterpret_cast<const char*>(f.dip), 4);
        e += ScapInt(f.sport) + ScapInt(f.dport) + ScapInt(f.l4proto);
      } else if (f.kind == kScapFdUnixSock) {
        e += ScapInt<uint64_t>(1) + ScapInt<uint64_t>(2) + Str16(f.name);
      } else if (f.kind == kScapFdFileV2) {
        e += ScapInt(f.open_flags) + Str16(f.name) + ScapInt(f.dev);
      } else {
        e += Str16(f.name);
      }
      b += ScapInt<uint32_t>(static_cast<uint32_t>(e.size() + 4)) + e;
    }
    return Block(0x218, b);
  }
  // An event in an EV_BLOCK_TYPE_V2 block (`v2` false: EV_BLOCK_TYPE, no
  // nparams in the header).
  ScapWriter& Event(uint16_t type, uint64_t ts, uint64_t tid,
                    const std::vector<std::string>& params, bool v2 = true, uint16_t cpu = 0) {
    const size_t header = v2 ? 26 : 22;
    std::string lens, data;
    for (const std::string& p : params) {
      lens += ScapInt<uint16_t>(static_cast<uint16_t>(p.size()));
      data += p;
    }
    const auto len = static_cast<uint32_t>(header + lens.size() + data.size());
    std::string e = ScapInt(ts) + ScapInt(tid) + ScapInt(len) + ScapInt(type);
    if (v2) e += ScapInt<uint32_t>(static_cast<uint32_t>(params.size()));
    return Block(v2 ? 0x216 : 0x204, ScapInt(cpu) + e + lens + data);
  }
  // Any block, its body as given.
  ScapWriter& Block(uint32_t type, const std::string& body) {
    const size_t padded = (body.size() + 3) / 4 * 4;
    const auto total = static_cast<uint32_t>(12 + padded);
    bytes_ += ScapInt(type) + ScapInt(total) + body + std::string(padded - body.size(), '\0') +
              ScapInt(total);
    return *this;
  }

  const std::string& bytes() const { return bytes_; }
  size_t size() const { return bytes_.size(); }
  bool WriteTo(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes_.data(), static_cast<std::streamsize>(bytes_.size()));
    return static_cast<bool>(out);
  }

 private:
  static std::string Str16(std::string_view s) {
    return ScapInt<uint16_t>(static_cast<uint16_t>(s.size())) + std::string(s);
  }
  std::string bytes_;
};

}  // namespace kestrel::test

#endif  // KESTREL_TEST_SUPPORT_SCAP_WRITER_H_
