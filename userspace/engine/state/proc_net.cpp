#include "proc_net.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <arpa/inet.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace kestrel::engine {
namespace {

constexpr int kTcpListen = 0x0A;                      // TCP_LISTEN in the "st" column
constexpr uint32_t kUnixAcceptConnections = 0x10000;  // __SO_ACCEPTCON in "Flags"

std::vector<absl::string_view> Columns(absl::string_view line) {
  return absl::StrSplit(line, ' ', absl::SkipEmpty());
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

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

void ParseInetSockets(std::string_view table, uint8_t family, uint8_t l4proto,
                      SocketsByInode& out) {
  struct Row {
    uint64_t ino;
    SocketAddress local, remote;
    int state;
  };
  std::vector<Row> rows;
  absl::flat_hash_set<uint16_t> listening_ports;
  bool header = true;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(table.data(), table.size()), '\n')) {
    if (header) {  // the column titles
      header = false;
      continue;
    }
    const std::vector<absl::string_view> cols = Columns(line);
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
    Row row;
    uint32_t state = 0;
    if (cols.size() < 10 || !ParseInetAddress(cols[1], family, row.local) ||
        !ParseInetAddress(cols[2], family, row.remote) || !absl::SimpleHexAtoi(cols[3], &state) ||
        !absl::SimpleAtoi(cols[9], &row.ino) || row.ino == 0) {
      continue;
    }
    row.state = static_cast<int>(state);
    if (l4proto == IPPROTO_TCP && row.state == kTcpListen) listening_ports.insert(row.local.port);
    rows.push_back(std::move(row));
  }
  for (Row& row : rows) {
    FdInfo info;
    info.type = family == KESTREL_AF_INET ? FdType::kIpv4Socket : FdType::kIpv6Socket;
    info.family = family;
    info.l4proto = l4proto;
    info.sock_type = l4proto == IPPROTO_TCP ? SOCK_STREAM : SOCK_DGRAM;
    info.ino = row.ino;
    const bool listening = l4proto == IPPROTO_TCP && row.state == kTcpListen;
    info.connected = !listening && row.remote.port != 0;
    info.is_server = listening || (info.connected && listening_ports.contains(row.local.port));
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
}

void ParseUnixSockets(std::string_view table, SocketsByInode& out) {
  bool header = true;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(table.data(), table.size()), '\n')) {
    if (header) {
      header = false;
      continue;
    }
    // Num RefCount Protocol Flags Type St Inode [Path]
    const std::vector<absl::string_view> cols = Columns(line);
    uint32_t flags = 0, type = 0;
    uint64_t ino = 0;
    if (cols.size() < 7 || !absl::SimpleHexAtoi(cols[3], &flags) ||
        !absl::SimpleHexAtoi(cols[4], &type) || !absl::SimpleAtoi(cols[6], &ino) || ino == 0) {
      continue;
    }
    FdInfo info;
    info.type = FdType::kUnixSocket;
    info.family = KESTREL_AF_UNIX;
    info.sock_type = static_cast<int32_t>(type);
    info.ino = ino;
    info.is_server = (flags & kUnixAcceptConnections) != 0;
    if (cols.size() > 7) {
      // The path is the rest of the line (it may hold spaces).
      const size_t at = static_cast<size_t>(cols[7].data() - line.data());
      info.local.family = KESTREL_AF_UNIX;
      info.local.address = std::string(line.substr(at));
      info.name = info.local.address;
    }
    out.insert_or_assign(ino, std::move(info));
  }
}

SocketsByInode ReadProcNetSockets(const std::string& proc_root) {
  SocketsByInode out;
  const std::string net = proc_root + "/net/";
  ParseInetSockets(ReadWhole(net + "tcp"), KESTREL_AF_INET, IPPROTO_TCP, out);
  ParseInetSockets(ReadWhole(net + "tcp6"), KESTREL_AF_INET6, IPPROTO_TCP, out);
  ParseInetSockets(ReadWhole(net + "udp"), KESTREL_AF_INET, IPPROTO_UDP, out);
  ParseInetSockets(ReadWhole(net + "udp6"), KESTREL_AF_INET6, IPPROTO_UDP, out);
  ParseUnixSockets(ReadWhole(net + "unix"), out);
  return out;
}

}  // namespace kestrel::engine
