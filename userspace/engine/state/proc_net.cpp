#include "proc_net.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <arpa/inet.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace kestrel::engine {
namespace {

constexpr int kTcpListen = 0x0A;                      // TCP_LISTEN in the "st" column
constexpr uint32_t kUnixAcceptConnections = 0x10000;  // __SO_ACCEPTCON in "Flags"

// The space-separated columns of `line`, into `cols` (reused across lines).
void Columns(absl::string_view line, std::vector<absl::string_view>& cols) {
  cols.clear();
  for (absl::string_view col : absl::StrSplit(line, ' ', absl::SkipEmpty())) cols.push_back(col);
}

// "0100007F:1F90": the address words as the kernel printed them (%08X of
// each 32-bit word in host order), then the port.
bool ParseInetAddress(absl::string_view text, uint8_t family, SocketAddress& out) {
  const size_t colon = text.find(':');
  const size_t words = family == KESTREL_AF_INET ? 1 : 4;
  if (colon != words * 8) return false;
  uint8_t bytes[16] = {};
  for (size_t i = 0; i < words; ++i) {
    uint32_t word = 0;
    if (!absl::SimpleHexAtoi(text.substr(i * 8, 8), &word)) return false;
    std::memcpy(bytes + i * 4, &word, 4);
  }
  uint32_t port = 0;
  if (!absl::SimpleHexAtoi(text.substr(colon + 1), &port) || port > 0xffff) return false;
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(family == KESTREL_AF_INET ? AF_INET : AF_INET6, bytes, buf, sizeof(buf));
  out.family = family;
  out.address = buf;
  out.port = static_cast<uint16_t>(port);
  return true;
}

std::string Endpoint(const SocketAddress& a) { return absl::StrCat(a.address, ":", a.port); }

// Calls `visit` with each line of the file at `path`, read through the
// stream's buffer: /proc/net/tcp also lists every TIME_WAIT socket, 150
// bytes each, and a busy host has a hundred thousand of them (tens of
// megabytes that a whole-file read held, twice, while the seed ran).
void ForEachLine(const std::string& path, const std::function<void(absl::string_view)>& visit) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) visit(line);
}

// One /proc/net/{tcp,tcp6,udp,udp6} table, fed a line at a time (its
// column titles first).
class InetTable {
 public:
  InetTable(uint8_t family, uint8_t l4proto) : family_(family), l4proto_(l4proto) {}

  void AddLine(absl::string_view line) {
    if (header_) {
      header_ = false;
      return;
    }
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
    Columns(line, cols_);
    Row row;
    // The inode first: without one, the row is a TIME_WAIT socket no
    // descriptor holds (most of a busy table), not worth its addresses.
    if (cols_.size() < 10 || !absl::SimpleAtoi(cols_[9], &row.ino) || row.ino == 0) return;
    uint32_t state = 0;
    if (!ParseInetAddress(cols_[1], family_, row.local) ||
        !ParseInetAddress(cols_[2], family_, row.remote) ||
        !absl::SimpleHexAtoi(cols_[3], &state)) {
      return;
    }
    row.state = static_cast<int>(state);
    if (l4proto_ == IPPROTO_TCP && row.state == kTcpListen) listening_ports_.insert(row.local.port);
    rows_.push_back(std::move(row));
  }

  // Connected TCP sockets whose local port a listener of the table holds
  // are the server's end: known only once the whole table is read.
  void AddTo(SocketsByInode& out) {
    for (Row& row : rows_) {
      FdInfo info;
      info.type = family_ == KESTREL_AF_INET ? FdType::kIpv4Socket : FdType::kIpv6Socket;
      info.family = family_;
      info.l4proto = l4proto_;
      info.sock_type = l4proto_ == IPPROTO_TCP ? SOCK_STREAM : SOCK_DGRAM;
      info.ino = row.ino;
      const bool listening = l4proto_ == IPPROTO_TCP && row.state == kTcpListen;
      info.connected = !listening && row.remote.port != 0;
      info.is_server = listening || (info.connected && listening_ports_.contains(row.local.port));
      if (!info.connected) {
        info.name = Endpoint(row.local);
      } else if (info.is_server) {
        info.name = absl::StrCat(Endpoint(row.remote), "->", Endpoint(row.local));
      } else {
        info.name = absl::StrCat(Endpoint(row.local), "->", Endpoint(row.remote));
      }
      info.local = std::move(row.local);
      info.remote = std::move(row.remote);
      out.insert_or_assign(info.ino, std::move(info));
    }
    rows_.clear();
  }

 private:
  struct Row {
    uint64_t ino;
    SocketAddress local, remote;
    int state;
  };
  const uint8_t family_;
  const uint8_t l4proto_;
  bool header_ = true;
  std::vector<absl::string_view> cols_;
  std::vector<Row> rows_;
  absl::flat_hash_set<uint16_t> listening_ports_;
};

// /proc/net/unix, fed a line at a time (its column titles first).
class UnixTable {
 public:
  void AddLine(absl::string_view line, SocketsByInode& out) {
    if (header_) {
      header_ = false;
      return;
    }
    // Num RefCount Protocol Flags Type St Inode [Path]
    Columns(line, cols_);
    uint32_t flags = 0, type = 0;
    uint64_t ino = 0;
    if (cols_.size() < 7 || !absl::SimpleHexAtoi(cols_[3], &flags) ||
        !absl::SimpleHexAtoi(cols_[4], &type) || !absl::SimpleAtoi(cols_[6], &ino) || ino == 0) {
      return;
    }
    FdInfo info;
    info.type = FdType::kUnixSocket;
    info.family = KESTREL_AF_UNIX;
    info.sock_type = static_cast<int32_t>(type);
    info.ino = ino;
    info.is_server = (flags & kUnixAcceptConnections) != 0;
    if (cols_.size() > 7) {
      // The path is the rest of the line (it may hold spaces).
      const size_t at = static_cast<size_t>(cols_[7].data() - line.data());
      info.local.family = KESTREL_AF_UNIX;
      info.local.address = std::string(line.substr(at));
      info.name = info.local.address;
    }
    out.insert_or_assign(ino, std::move(info));
  }

 private:
  bool header_ = true;
  std::vector<absl::string_view> cols_;
};

void ReadInetTable(const std::string& path, uint8_t family, uint8_t l4proto, SocketsByInode& out) {
  InetTable table(family, l4proto);
  ForEachLine(path, [&](absl::string_view line) { table.AddLine(line); });
  table.AddTo(out);
}

}  // namespace

void ParseInetSockets(std::string_view table, uint8_t family, uint8_t l4proto,
                      SocketsByInode& out) {
  InetTable parsed(family, l4proto);
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(table.data(), table.size()), '\n')) {
    parsed.AddLine(line);
  }
  parsed.AddTo(out);
}

void ParseUnixSockets(std::string_view table, SocketsByInode& out) {
  UnixTable parsed;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(table.data(), table.size()), '\n')) {
    parsed.AddLine(line, out);
  }
}

SocketsByInode ReadProcNetSockets(const std::string& proc_root) {
  SocketsByInode out;
  const std::string net = proc_root + "/net/";
  ReadInetTable(net + "tcp", KESTREL_AF_INET, IPPROTO_TCP, out);
  ReadInetTable(net + "tcp6", KESTREL_AF_INET6, IPPROTO_TCP, out);
  ReadInetTable(net + "udp", KESTREL_AF_INET, IPPROTO_UDP, out);
  ReadInetTable(net + "udp6", KESTREL_AF_INET6, IPPROTO_UDP, out);
  UnixTable unix_table;
  ForEachLine(net + "unix", [&](absl::string_view line) { unix_table.AddLine(line, out); });
  return out;
}

}  // namespace kestrel::engine
