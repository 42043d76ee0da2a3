// /proc/net socket tables, from fixture text as the kernel prints it.
#include "engine/state/proc_net.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_format.h"

namespace kestrel::engine {
namespace {

// A listener on 127.0.0.1:8080, a client of it (port 51000) and the
// accepted end, and a connection out to 10.1.2.3:443.
constexpr char kTcp[] =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
    "inode\n"
    "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 "
    "1001 1 0000000000000000 100 0 0 10 0\n"
    "   1: 0100007F:C738 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 "
    "1002 1 0000000000000000 20 4 30 10 -1\n"
    "   2: 0100007F:1F90 0100007F:C738 01 00000000:00000000 00:00000000 00000000     0        0 "
    "1003 1 0000000000000000 20 4 30 10 -1\n"
    "   3: 0F02000A:9C40 0302010A:01BB 01 00000000:00000000 00:00000000 00000000  1000        0 "
    "1004 1 0000000000000000 20 4 30 10 -1\n";

constexpr char kTcp6[] =
    "  sl  local_address                         remote_address                        st tx_queue "
    "rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 00000000000000000000000001000000:0016 00000000000000000000000000000000:0000 0A "
    "00000000:00000000 00:00000000 00000000     0        0 2001 1 0000000000000000 100 0 0 10 0\n";

constexpr char kUdp[] =
    "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
    "inode ref pointer drops\n"
    "  100: 3500007F:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000   101        0 "
    "3001 2 0000000000000000 0\n";

constexpr char kUnix[] =
    "Num       RefCount Protocol Flags    Type St Inode Path\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 4001 /run/my app.sock\n"
    "0000000000000000: 00000003 00000000 00000000 0001 03 4002\n"
    "0000000000000000: 00000002 00000000 00000000 0002 01 4003 @abstract\n";

TEST(ProcNetTest, TcpListenerClientAndServerEnds) {
  SocketsByInode sockets;
  ParseInetSockets(kTcp, KESTREL_AF_INET, IPPROTO_TCP, sockets);
  ASSERT_EQ(sockets.size(), 4u);
  const FdInfo& listener = sockets.at(1001);
  EXPECT_EQ(listener.type, FdType::kIpv4Socket);
  EXPECT_EQ(listener.name, "127.0.0.1:8080");
  EXPECT_TRUE(listener.is_server);
  EXPECT_FALSE(listener.connected);
  EXPECT_EQ(listener.l4proto, IPPROTO_TCP);
  EXPECT_EQ(listener.sock_type, SOCK_STREAM);
  const FdInfo& client = sockets.at(1002);
  EXPECT_EQ(client.name, "127.0.0.1:51000->127.0.0.1:8080");
  EXPECT_FALSE(client.is_server);
  EXPECT_TRUE(client.connected);
  const FdInfo& server = sockets.at(1003);
  EXPECT_EQ(server.name, "127.0.0.1:51000->127.0.0.1:8080");
  EXPECT_TRUE(server.is_server);
  EXPECT_EQ(server.local.port, 8080);
  EXPECT_EQ(server.remote.port, 51000);
  const FdInfo& out = sockets.at(1004);
  EXPECT_EQ(out.name, "10.0.2.15:40000->10.1.2.3:443");
  EXPECT_EQ(out.ino, 1004u);
  EXPECT_EQ(out.fd, -1);
}

TEST(ProcNetTest, Tcp6AndUdp) {
  SocketsByInode sockets;
  ParseInetSockets(kTcp6, KESTREL_AF_INET6, IPPROTO_TCP, sockets);
  ParseInetSockets(kUdp, KESTREL_AF_INET, IPPROTO_UDP, sockets);
  ASSERT_EQ(sockets.size(), 2u);
  EXPECT_EQ(sockets.at(2001).type, FdType::kIpv6Socket);
  EXPECT_EQ(sockets.at(2001).name, "::1:22");
  EXPECT_TRUE(sockets.at(2001).is_server);
  EXPECT_EQ(sockets.at(3001).name, "127.0.0.53:53");
  EXPECT_EQ(sockets.at(3001).l4proto, IPPROTO_UDP);
  EXPECT_EQ(sockets.at(3001).sock_type, SOCK_DGRAM);
  EXPECT_FALSE(sockets.at(3001).connected);
}

TEST(ProcNetTest, UnixSocketsWithAndWithoutPaths) {
  SocketsByInode sockets;
  ParseUnixSockets(kUnix, sockets);
  ASSERT_EQ(sockets.size(), 3u);
  EXPECT_EQ(sockets.at(4001).type, FdType::kUnixSocket);
  EXPECT_EQ(sockets.at(4001).name, "/run/my app.sock");
  EXPECT_TRUE(sockets.at(4001).is_server);
  EXPECT_EQ(sockets.at(4001).sock_type, SOCK_STREAM);
  EXPECT_EQ(sockets.at(4002).name, "");
  EXPECT_FALSE(sockets.at(4002).is_server);
  EXPECT_EQ(sockets.at(4003).name, "@abstract");
  EXPECT_EQ(sockets.at(4003).sock_type, SOCK_DGRAM);
}

TEST(ProcNetTest, MalformedRowsAreSkipped) {
  SocketsByInode sockets;
  ParseInetSockets("header\n   0: nonsense\n\n   1: 0100007F:zz 00000000:0000 0A x x x 0 0 5\n",
                   KESTREL_AF_INET, IPPROTO_TCP, sockets);
  ParseUnixSockets("header\n0: 1 2\n", sockets);
  EXPECT_TRUE(sockets.empty());
}

// A busy host's tables as ReadProcNetSockets reads them from a proc root:
// 100,000 TIME_WAIT rows (no inode: no descriptor holds them) around the
// fixture's sockets, which alone are kept.
TEST(ProcNetTest, ReadFromAProcRootKeepsOnlySocketsWithAnInode) {
  char tmpl[] = "/tmp/kestrel-proc-net-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::filesystem::path root = tmpl;
  std::filesystem::create_directories(root / "net");
  {
    std::ofstream tcp(root / "net/tcp");
    tcp << kTcp;
    for (int i = 0; i < 100000; ++i) {
      tcp << absl::StrFormat(
          "%6d: 0100007F:%04X 0100007F:1F90 06 00000000:00000000 03:00000E9A 00000000     0"
          "        0 0 3 0000000000000000\n",
          i + 4, 1024 + i % 60000);
    }
  }
  std::ofstream(root / "net/tcp6") << kTcp6;
  std::ofstream(root / "net/udp") << kUdp;
  std::ofstream(root / "net/unix") << kUnix;

  const SocketsByInode sockets = ReadProcNetSockets(root.string());
  std::filesystem::remove_all(root);
  EXPECT_EQ(sockets.size(), 9u);
  EXPECT_EQ(sockets.at(1003).name, "127.0.0.1:51000->127.0.0.1:8080");
  EXPECT_TRUE(sockets.at(1003).is_server);
  EXPECT_EQ(sockets.at(2001).type, FdType::kIpv6Socket);
  EXPECT_EQ(sockets.at(3001).l4proto, IPPROTO_UDP);
  EXPECT_EQ(sockets.at(4001).name, "/run/my app.sock");
  EXPECT_FALSE(sockets.contains(0));
}

}  // namespace
}  // namespace kestrel::engine
