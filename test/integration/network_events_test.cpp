// Network events: each syscall made with known arguments on loopback or
// unix sockets, success and failure, every decoded parameter checked.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/output/param_format.h"
#include "event_test_fixture.h"
#include "probe_session.h"
#include "shared/event_types.h"

namespace kestrel::testing {
namespace {

using engine::SocketAddress;

sockaddr_in Loopback4(uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

sockaddr_in6 Loopback6(uint16_t port) {
  sockaddr_in6 a{};
  a.sin6_family = AF_INET6;
  a.sin6_port = htons(port);
  a.sin6_addr = in6addr_loopback;
  return a;
}

sockaddr_un UnixAddress(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof(a.sun_path) - 1);
  return a;
}

// The kernel's view of one end of a socket, as the decoder prints it.
std::string LocalEnd(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len), 0);
  char text[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
    return std::string(text) + ":" + std::to_string(ntohs(a->sin_port));
  }
  auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
  inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof(text));
  return "[" + std::string(text) + "]:" + std::to_string(ntohs(a->sin6_port));
}

uint16_t LocalPort(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len), 0);
  return ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
}

std::optional<std::string> AddressText(const engine::DecodedEvent& e, const char* name) {
  std::optional<SocketAddress> a = e.Address(name);
  if (!a) return std::nullopt;
  return a->ToString();
}

std::optional<std::string> TupleText(const engine::DecodedEvent& e) {
  auto t = e.Tuple("tuple");
  if (!t) return std::nullopt;
  return t->first.ToString() + "->" + t->second.ToString();
}

// A TCP listener on a kernel-chosen loopback port.
class Listener {
 public:
  explicit Listener(int family, int type = SOCK_STREAM) {
    fd_ = socket(family, type | SOCK_CLOEXEC, 0);
    EXPECT_GE(fd_, 0);
    if (family == AF_INET) {
      sockaddr_in a = Loopback4(0);
      EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    } else {
      sockaddr_in6 a = Loopback6(0);
      EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    }
    if (type == SOCK_STREAM) {
      EXPECT_EQ(listen(fd_, 4), 0);
    }
    port_ = LocalPort(fd_);
  }
  ~Listener() { close(fd_); }
  int fd() const { return fd_; }
  uint16_t port() const { return port_; }

 private:
  int fd_;
  uint16_t port_;
};

// A loopback port nothing listens on: bound, then released.
uint16_t ClosedPort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a = Loopback4(0);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  const uint16_t port = LocalPort(fd);
  close(fd);
  return port;
}

using NetworkEventsTest = EventTest;

TEST_F(NetworkEventsTest, Socket) {
  auto session = Start({SYS_socket});
  ASSERT_NE(session, nullptr);
  const int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(socket(AF_INET, SOCK_STREAM, IPPROTO_UDP), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SOCKET);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("fd"), fd);
  EXPECT_EQ(ok.Int("domain"), AF_INET6);
  EXPECT_EQ(ok.Int("type"), SOCK_DGRAM | SOCK_CLOEXEC);
  EXPECT_EQ(ok.Int("proto"), IPPROTO_UDP);
  EXPECT_EQ(ok.Int("flags"), SOCK_CLOEXEC);
  std::string text;
  engine::AppendParams(text, ok, engine::OutputStyle::kText);
  EXPECT_EQ(text, "fd=" + std::to_string(fd) +
                      " domain=AF_INET6 type=SOCK_DGRAM|SOCK_CLOEXEC proto=17 flags=O_CLOEXEC");
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("fd"), -err);
  EXPECT_EQ(bad.Int("flags"), 0);
  EXPECT_EQ(bad.Int("domain"), AF_INET);
  EXPECT_EQ(bad.Int("type"), SOCK_STREAM);
  EXPECT_EQ(bad.Int("proto"), IPPROTO_UDP);
}

TEST_F(NetworkEventsTest, Socketpair) {
  auto session = Start({SYS_socketpair});
  ASSERT_NE(session, nullptr);
  int fds[2] = {-1, -1};
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0, fds), 0);
  close(fds[0]);
  close(fds[1]);
  int unused[2];
  ASSERT_EQ(socketpair(AF_INET, SOCK_STREAM, 0, unused), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SOCKETPAIR);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 0);
  EXPECT_EQ(ok.Int("domain"), AF_UNIX);
  EXPECT_EQ(ok.Int("type"), SOCK_SEQPACKET | SOCK_NONBLOCK);
  EXPECT_EQ(ok.Int("proto"), 0);
  EXPECT_EQ(ok.Int("fd1"), fds[0]);
  EXPECT_EQ(ok.Int("fd2"), fds[1]);
  // Kernel addresses of the two socks: unknowable from here, but both set
  // and distinct (the peer is the other end, not the source itself).
  EXPECT_NE(ok.Int("source").value_or(0), 0);
  EXPECT_NE(ok.Int("peer").value_or(0), 0);
  EXPECT_NE(ok.Int("source"), ok.Int("peer"));
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -err);
  EXPECT_EQ(bad.Int("domain"), AF_INET);
  EXPECT_EQ(bad.Int("fd1"), std::nullopt);
  EXPECT_EQ(bad.Int("fd2"), std::nullopt);
  EXPECT_EQ(bad.Int("source"), 0);
  EXPECT_EQ(bad.Int("peer"), 0);
}

TEST_F(NetworkEventsTest, ConnectIpv4ReportsTheKernelsTuple) {
  Listener server(AF_INET);
  const uint16_t closed = ClosedPort();
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int refused = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_connect});
  ASSERT_NE(session, nullptr);
  sockaddr_in to = Loopback4(server.port());
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  sockaddr_in nobody = Loopback4(closed);
  ASSERT_EQ(connect(refused, reinterpret_cast<sockaddr*>(&nobody), sizeof(nobody)), -1);
  EXPECT_EQ(errno, ECONNREFUSED);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_CONNECT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  const std::string server_end = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(ok.Int("res"), 0);
  EXPECT_EQ(ok.Int("fd"), fd);
  EXPECT_EQ(AddressText(ok, "addr"), server_end);
  EXPECT_EQ(TupleText(ok), LocalEnd(fd) + "->" + server_end);
  std::string text;
  engine::AppendParams(text, ok, engine::OutputStyle::kText);
  EXPECT_EQ(text, "res=0 fd=" + std::to_string(fd) + " addr=" + server_end + " tuple=" +
                      LocalEnd(fd) + "->" + server_end + " l4proto=6 sock_type=SOCK_STREAM");
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -ECONNREFUSED);
  EXPECT_EQ(bad.Int("fd"), refused);
  EXPECT_EQ(AddressText(bad, "addr"), "127.0.0.1:" + std::to_string(closed));
  EXPECT_EQ(TupleText(bad), std::nullopt);
  // The socket is still a TCP socket after the refusal.
  EXPECT_EQ(bad.Int("l4proto"), IPPROTO_TCP);
  EXPECT_EQ(bad.Int("sock_type"), SOCK_STREAM);
  close(fd);
  close(refused);
}

TEST_F(NetworkEventsTest, ConnectIpv6) {
  Listener server(AF_INET6);
  const int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_connect});
  ASSERT_NE(session, nullptr);
  sockaddr_in6 to = Loopback6(server.port());
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  // A sockaddr too short for its family.
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&to), 8), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_CONNECT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  const std::string server_end = "[::1]:" + std::to_string(server.port());
  EXPECT_EQ(ok.Int("res"), 0);
  EXPECT_EQ(AddressText(ok, "addr"), server_end);
  EXPECT_EQ(TupleText(ok), LocalEnd(fd) + "->" + server_end);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -err);
  EXPECT_EQ(bad.Raw("addr").size(), 0u);
  EXPECT_EQ(TupleText(bad), std::nullopt);
  close(fd);
}

TEST_F(NetworkEventsTest, ConnectUnix) {
  const std::string path = dir_.path() + "/server.sock";
  const int server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr = UnixAddress(path);
  ASSERT_EQ(bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(server, 1), 0);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_connect});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  sockaddr_un missing = UnixAddress(dir_.path() + "/missing.sock");
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&missing), sizeof(missing)), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_CONNECT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), 0);
  EXPECT_EQ(AddressText(ok, "addr"), path);
  // The client is unnamed; its peer is the server's name.
  EXPECT_EQ(TupleText(ok), "->" + path);
  EXPECT_EQ(ok.Int("l4proto"), 0);
  EXPECT_EQ(ok.Int("sock_type"), SOCK_STREAM);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -err);
  EXPECT_EQ(AddressText(bad, "addr"), dir_.path() + "/missing.sock");
  EXPECT_EQ(TupleText(bad), std::nullopt);
  close(fd);
  close(server);
}

TEST_F(NetworkEventsTest, ConnectAbstractUnixName) {
  const std::string name = "kestrel-test-" + std::to_string(getpid());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path + 1, name.data(), name.size());
  const socklen_t len = offsetof(sockaddr_un, sun_path) + 1 + name.size();
  const int server = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(bind(server, reinterpret_cast<sockaddr*>(&addr), len), 0);
  const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_connect});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), len), 0);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_CONNECT);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(AddressText(got[0].Event(), "addr"), "@" + name);
  EXPECT_EQ(TupleText(got[0].Event()), "->@" + name);
  EXPECT_EQ(got[0].Event().Int("sock_type"), SOCK_DGRAM);
  close(fd);
  close(server);
}

TEST_F(NetworkEventsTest, AcceptReportsTheNewConnectionsTuple) {
  Listener server(AF_INET);
  const int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to = Loopback4(server.port());
  ASSERT_EQ(connect(client, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  // A second connection stays queued on the listener (backlog 4).
  const int waiting = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(connect(waiting, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  const int not_listening = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_accept});
  ASSERT_NE(session, nullptr);
  const int conn = accept(server.fd(), nullptr, nullptr);
  ASSERT_GE(conn, 0);
  ASSERT_EQ(accept(not_listening, nullptr, nullptr), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_ACCEPT);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("fd"), conn);
  EXPECT_EQ(ok.Int("listen_fd"), server.fd());
  EXPECT_EQ(TupleText(ok), "127.0.0.1:" + std::to_string(server.port()) + "->" + LocalEnd(client));
  EXPECT_EQ(ok.Int("queuelen"), 1);
  EXPECT_EQ(ok.Int("queuemax"), 4);
  EXPECT_EQ(ok.Int("queuepct"), 25);
  EXPECT_EQ(ok.Int("l4proto"), IPPROTO_TCP);
  EXPECT_EQ(ok.Int("sock_type"), SOCK_STREAM);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("fd"), -err);
  EXPECT_EQ(bad.Int("listen_fd"), not_listening);
  EXPECT_EQ(TupleText(bad), std::nullopt);
  EXPECT_EQ(bad.Int("queuelen"), 0);
  EXPECT_EQ(bad.Int("queuemax"), 0);
  EXPECT_EQ(bad.Int("queuepct"), 0);
  EXPECT_EQ(bad.Int("l4proto"), std::nullopt);
  close(waiting);
  close(conn);
  close(client);
  close(not_listening);
}

TEST_F(NetworkEventsTest, Accept4) {
  const std::string path = dir_.path() + "/accept.sock";
  const int server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr = UnixAddress(path);
  ASSERT_EQ(bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(server, 1), 0);
  const int client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  auto session = Start({SYS_accept4});
  ASSERT_NE(session, nullptr);
  const int conn = accept4(server, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  ASSERT_GE(conn, 0);
  ASSERT_EQ(accept4(server, nullptr, nullptr, SOCK_NONBLOCK | 1), -1);  // an unknown flag
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_ACCEPT4);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("fd"), conn);
  EXPECT_EQ(ok.Int("listen_fd"), server);
  EXPECT_EQ(ok.Int("flags"), SOCK_CLOEXEC | SOCK_NONBLOCK);
  // The accepted socket carries the listener's name; the client is unnamed.
  EXPECT_EQ(TupleText(ok), path + "->");
  EXPECT_EQ(ok.Int("queuelen"), 0);
  EXPECT_EQ(ok.Int("queuemax"), 1);
  EXPECT_EQ(ok.Int("queuepct"), 0);
  EXPECT_EQ(ok.Int("l4proto"), 0);
  EXPECT_EQ(ok.Int("sock_type"), SOCK_STREAM);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("fd"), -EINVAL);
  EXPECT_EQ(bad.Int("listen_fd"), server);
  EXPECT_EQ(err, EINVAL);
  EXPECT_EQ(bad.Int("flags"), SOCK_NONBLOCK | 1);
  EXPECT_EQ(TupleText(bad), std::nullopt);
  close(conn);
  close(client);
  close(server);
}

TEST_F(NetworkEventsTest, BindReportsTheBoundAddress) {
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  const int unix_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  const std::string path = dir_.path() + "/bound.sock";
  auto session = Start({SYS_bind});
  ASSERT_NE(session, nullptr);
  sockaddr_in any_port = Loopback4(0);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&any_port), sizeof(any_port)), 0);
  sockaddr_in again = Loopback4(1);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&again), sizeof(again)), -1);
  const int err = errno;
  sockaddr_un addr = UnixAddress(path);
  ASSERT_EQ(bind(unix_fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_BIND);
  ASSERT_EQ(got.size(), 3u);
  // Port 0 asked, the port the kernel chose reported.
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(AddressText(got[0].Event(), "addr"), LocalEnd(fd));
  EXPECT_NE(LocalPort(fd), 0);
  EXPECT_EQ(got[1].Event().Int("res"), -err);
  EXPECT_EQ(AddressText(got[1].Event(), "addr"), "127.0.0.1:1");
  EXPECT_EQ(got[2].Event().Int("res"), 0);
  EXPECT_EQ(AddressText(got[2].Event(), "addr"), path);
  close(fd);
  close(unix_fd);
}

TEST_F(NetworkEventsTest, Listen) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_listen});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(listen(fd, 7), 0);
  ASSERT_EQ(listen(udp, -3), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_LISTEN);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("backlog"), 7);
  EXPECT_EQ(got[1].Event().Int("res"), -err);
  EXPECT_EQ(got[1].Event().Int("fd"), udp);
  EXPECT_EQ(got[1].Event().Int("backlog"), -3);
  close(fd);
  close(udp);
}

TEST_F(NetworkEventsTest, SendtoAndRecvfrom) {
  Listener receiver(AF_INET, SOCK_DGRAM);
  const int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_sendto, SYS_recvfrom});
  ASSERT_NE(session, nullptr);
  sockaddr_in to = Loopback4(receiver.port());
  ASSERT_EQ(sendto(sender, "hello", 5, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&to), sizeof(to)),
            5);
  char buf[64];
  sockaddr_in from{};
  socklen_t from_len = sizeof(from);
  ASSERT_EQ(
      recvfrom(receiver.fd(), buf, sizeof(buf), 0, reinterpret_cast<sockaddr*>(&from), &from_len),
      5);
  from_len = sizeof(from);
  ASSERT_EQ(recvfrom(receiver.fd(), buf, sizeof(buf), MSG_DONTWAIT,
                     reinterpret_cast<sockaddr*>(&from), &from_len),
            -1);
  ASSERT_EQ(sendto(-1, "x", 1, 0, reinterpret_cast<sockaddr*>(&to), sizeof(to)), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 4u);
  const std::string receiver_end = "127.0.0.1:" + std::to_string(receiver.port());
  const std::string sender_port = std::to_string(LocalPort(sender));
  const engine::DecodedEvent sent = got[0].Event();
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_SENDTO);
  EXPECT_EQ(sent.Int("res"), 5);
  EXPECT_EQ(sent.Int("fd"), sender);
  EXPECT_EQ(sent.Int("size"), 5);
  EXPECT_EQ(sent.Int("flags"), MSG_DONTWAIT);
  EXPECT_EQ(AddressText(sent, "addr"), receiver_end);
  // An unconnected, unbound sender: autobound to a port on any address.
  EXPECT_EQ(TupleText(sent), "0.0.0.0:" + sender_port + "->0.0.0.0:0");
  EXPECT_EQ(sent.String("data"), "");  // data only when capture_io_data is set
  EXPECT_EQ(sent.Int("l4proto"), IPPROTO_UDP);
  EXPECT_EQ(sent.Int("sock_type"), SOCK_DGRAM);
  const engine::DecodedEvent received = got[1].Event();
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_RECVFROM);
  EXPECT_EQ(received.Int("res"), 5);
  EXPECT_EQ(received.Int("fd"), receiver.fd());
  EXPECT_EQ(received.Int("size"), 64);
  EXPECT_EQ(received.Int("flags"), 0);
  EXPECT_EQ(AddressText(received, "addr"), "127.0.0.1:" + sender_port);
  EXPECT_EQ(TupleText(received), receiver_end + "->0.0.0.0:0");
  EXPECT_EQ(received.Int("l4proto"), IPPROTO_UDP);
  EXPECT_EQ(received.Int("sock_type"), SOCK_DGRAM);
  const engine::DecodedEvent empty = got[2].Event();
  EXPECT_EQ(empty.Int("res"), -EAGAIN);
  EXPECT_EQ(empty.Int("flags"), MSG_DONTWAIT);
  EXPECT_EQ(AddressText(empty, "addr"), std::nullopt);
  EXPECT_EQ(TupleText(empty), receiver_end + "->0.0.0.0:0");
  const engine::DecodedEvent bad = got[3].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("fd"), -1);
  EXPECT_EQ(AddressText(bad, "addr"), receiver_end);
  EXPECT_EQ(TupleText(bad), std::nullopt);
  EXPECT_EQ(bad.Int("l4proto"), std::nullopt);
  EXPECT_EQ(bad.Int("sock_type"), std::nullopt);
  close(sender);
}

TEST_F(NetworkEventsTest, SendmsgAndRecvmsg) {
  Listener receiver(AF_INET6, SOCK_DGRAM);
  const int sender = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in6 to = Loopback6(receiver.port());
  ASSERT_EQ(connect(sender, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  auto session = Start({SYS_sendmsg, SYS_recvmsg});
  ASSERT_NE(session, nullptr);
  char a[] = "abc", b[] = "defg";
  iovec out_iov[2] = {{a, 3}, {b, 4}};
  msghdr out{};
  out.msg_iov = out_iov;
  out.msg_iovlen = 2;
  ASSERT_EQ(sendmsg(sender, &out, MSG_NOSIGNAL), 7);
  char buf1[5], buf2[20];
  iovec in_iov[2] = {{buf1, sizeof(buf1)}, {buf2, sizeof(buf2)}};
  sockaddr_in6 from{};
  msghdr in{};
  in.msg_name = &from;
  in.msg_namelen = sizeof(from);
  in.msg_iov = in_iov;
  in.msg_iovlen = 2;
  ASSERT_EQ(recvmsg(receiver.fd(), &in, 0), 7);
  in.msg_namelen = sizeof(from);
  ASSERT_EQ(recvmsg(receiver.fd(), &in, MSG_DONTWAIT), -1);
  ASSERT_EQ(sendmsg(-1, &out, 0), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 4u);
  const std::string receiver_end = "[::1]:" + std::to_string(receiver.port());
  const engine::DecodedEvent sent = got[0].Event();
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_SENDMSG);
  EXPECT_EQ(sent.Int("res"), 7);
  EXPECT_EQ(sent.Int("fd"), sender);
  EXPECT_EQ(sent.Int("flags"), MSG_NOSIGNAL);
  EXPECT_EQ(sent.Int("size"), 7);
  EXPECT_EQ(AddressText(sent, "addr"), std::nullopt);  // connected: no msg_name
  EXPECT_EQ(TupleText(sent), LocalEnd(sender) + "->" + receiver_end);
  EXPECT_EQ(sent.Int("l4proto"), IPPROTO_UDP);
  EXPECT_EQ(sent.Int("sock_type"), SOCK_DGRAM);
  const engine::DecodedEvent received = got[1].Event();
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_RECVMSG);
  EXPECT_EQ(received.Int("res"), 7);
  EXPECT_EQ(received.Int("fd"), receiver.fd());
  EXPECT_EQ(received.Int("flags"), 0);
  EXPECT_EQ(received.Int("size"), 25);
  EXPECT_EQ(AddressText(received, "addr"), LocalEnd(sender));
  EXPECT_EQ(TupleText(received), receiver_end + "->[::]:0");
  EXPECT_EQ(received.Int("l4proto"), IPPROTO_UDP);
  EXPECT_EQ(received.Raw("msgcontrol").size(), 0u);  // no control buffer given
  const engine::DecodedEvent empty = got[2].Event();
  EXPECT_EQ(empty.Int("res"), -EAGAIN);
  EXPECT_EQ(empty.Int("flags"), MSG_DONTWAIT);
  EXPECT_EQ(AddressText(empty, "addr"), std::nullopt);
  const engine::DecodedEvent bad = got[3].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("size"), 7);
  EXPECT_EQ(TupleText(bad), std::nullopt);
  close(sender);
}

TEST_F(NetworkEventsTest, Shutdown) {
  Listener server(AF_INET);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to = Loopback4(server.port());
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  const int unconnected = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_shutdown});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(shutdown(fd, SHUT_WR), 0);
  ASSERT_EQ(shutdown(unconnected, SHUT_RDWR), -1);
  const int err = errno;

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SHUTDOWN);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(got[0].Event().Int("how"), SHUT_WR);
  std::string text;
  engine::AppendParams(text, got[1].Event(), engine::OutputStyle::kText);
  EXPECT_EQ(text, "res=" + std::to_string(-err) + "(ENOTCONN) fd=" + std::to_string(unconnected) +
                      " how=SHUT_RDWR");
  close(fd);
  close(unconnected);
}

TEST_F(NetworkEventsTest, RecvmsgRecordsTheControlDataTheKernelWrote) {
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair), 0);
  // Pass a descriptor: the kernel writes the receiver's new fd number into
  // the control buffer, so the record must hold exactly those bytes.
  const int passed = dup(pair[0]);
  char payload[] = "x";
  iovec out_iov = {payload, 1};
  alignas(cmsghdr) char out_control[CMSG_SPACE(sizeof(int))] = {};
  msghdr out{};
  out.msg_iov = &out_iov;
  out.msg_iovlen = 1;
  out.msg_control = out_control;
  out.msg_controllen = sizeof(out_control);
  cmsghdr* cm = CMSG_FIRSTHDR(&out);
  cm->cmsg_level = SOL_SOCKET;
  cm->cmsg_type = SCM_RIGHTS;
  cm->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(cm), &passed, sizeof(int));
  ASSERT_EQ(sendmsg(pair[0], &out, 0), 1);
  auto session = Start({SYS_recvmsg});
  ASSERT_NE(session, nullptr);
  char in_byte;
  iovec in_iov = {&in_byte, 1};
  alignas(cmsghdr) char in_control[64] = {};
  msghdr in{};
  in.msg_iov = &in_iov;
  in.msg_iovlen = 1;
  in.msg_control = in_control;
  in.msg_controllen = sizeof(in_control);
  ASSERT_EQ(recvmsg(pair[1], &in, MSG_CMSG_CLOEXEC), 1);
  int received_fd = -1;
  std::memcpy(&received_fd, CMSG_DATA(CMSG_FIRSTHDR(&in)), sizeof(int));
  ASSERT_GE(received_fd, 0);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_RECVMSG);
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), 1);
  EXPECT_EQ(e.Int("flags"), MSG_CMSG_CLOEXEC);
  EXPECT_EQ(e.Int("l4proto"), 0);
  EXPECT_EQ(e.Int("sock_type"), SOCK_DGRAM);
  const auto control = e.Raw("msgcontrol");
  ASSERT_EQ(control.size(), in.msg_controllen);
  EXPECT_EQ(std::memcmp(control.data(), in_control, in.msg_controllen), 0);
  close(received_fd);
  close(passed);
  close(pair[0]);
  close(pair[1]);
}

TEST_F(NetworkEventsTest, SetsockoptAndGetsockopt) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_setsockopt, SYS_getsockopt});
  ASSERT_NE(session, nullptr);
  const int want = 65536;
  ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want)), 0);
  ASSERT_EQ(setsockopt(fd, SOL_SOCKET, 9999, &want, sizeof(want)), -1);
  const int set_err = errno;
  int type = 0;
  socklen_t type_len = sizeof(type);
  ASSERT_EQ(getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_len), 0);
  int rcvbuf = 0;
  socklen_t rcvbuf_len = sizeof(rcvbuf);
  ASSERT_EQ(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &rcvbuf_len), 0);
  int nodelay = 0;
  socklen_t nodelay_len = sizeof(nodelay);
  ASSERT_EQ(getsockopt(-1, IPPROTO_TCP, TCP_NODELAY, &nodelay, &nodelay_len), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 5u);
  const engine::DecodedEvent set = got[0].Event();
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_SETSOCKOPT);
  std::string text;
  engine::AppendParams(text, set, engine::OutputStyle::kText);
  EXPECT_EQ(
      text.substr(0, text.find(" optval=")),
      "res=0 fd=" + std::to_string(fd) + " level=SOL_SOCKET optname=SO_RCVBUF optlen=4 val=65536");
  EXPECT_EQ(set.Raw("optval").size(), sizeof(int));
  EXPECT_EQ(std::memcmp(set.Raw("optval").data(), &want, sizeof(int)), 0);
  const engine::DecodedEvent unknown = got[1].Event();
  EXPECT_EQ(unknown.Int("res"), -set_err);
  EXPECT_EQ(unknown.Int("optname"), 9999);
  EXPECT_EQ(unknown.Int("val"), want);  // an int-sized SOL_SOCKET value
  const engine::DecodedEvent got_type = got[2].Event();
  EXPECT_EQ(got[2].header().type, KESTREL_EVT_GETSOCKOPT);
  EXPECT_EQ(got_type.Int("res"), 0);
  EXPECT_EQ(got_type.Int("fd"), fd);
  EXPECT_EQ(got_type.Int("level"), SOL_SOCKET);
  EXPECT_EQ(got_type.Int("optname"), SO_TYPE);
  EXPECT_EQ(got_type.Int("optlen"), 4);
  EXPECT_EQ(got_type.Int("val"), SOCK_STREAM);
  EXPECT_EQ(got_type.Int("val"), type);
  const engine::DecodedEvent got_rcvbuf = got[3].Event();
  EXPECT_EQ(got_rcvbuf.Int("optname"), SO_RCVBUF);
  EXPECT_EQ(got_rcvbuf.Int("val"), rcvbuf);  // what the kernel made of 65536
  const engine::DecodedEvent bad = got[4].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("fd"), -1);
  EXPECT_EQ(bad.Int("level"), IPPROTO_TCP);
  EXPECT_EQ(bad.Int("optname"), TCP_NODELAY);
  EXPECT_EQ(bad.Int("optlen"), 4);
  EXPECT_EQ(bad.Int("val"), std::nullopt);
  EXPECT_EQ(bad.Raw("optval").size(), 0u);
  close(fd);
}

TEST_F(NetworkEventsTest, GetsocknameAndGetpeername) {
  Listener server(AF_INET);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to = Loopback4(server.port());
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  const std::string path = dir_.path() + "/named.sock";
  const int unix_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_un unix_addr = UnixAddress(path);
  ASSERT_EQ(bind(unix_fd, reinterpret_cast<sockaddr*>(&unix_addr), sizeof(unix_addr)), 0);
  const std::string local = LocalEnd(fd);
  auto session = Start({SYS_getsockname, SYS_getpeername});
  ASSERT_NE(session, nullptr);
  sockaddr_storage ss{};
  socklen_t len = sizeof(ss);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len), 0);
  len = sizeof(ss);
  ASSERT_EQ(getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len), 0);
  len = sizeof(ss);
  ASSERT_EQ(getsockname(unix_fd, reinterpret_cast<sockaddr*>(&ss), &len), 0);
  len = sizeof(ss);
  ASSERT_EQ(getpeername(unix_fd, reinterpret_cast<sockaddr*>(&ss), &len), -1);
  EXPECT_EQ(errno, ENOTCONN);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_GETSOCKNAME);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("fd"), fd);
  EXPECT_EQ(AddressText(got[0].Event(), "addr"), local);
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_GETPEERNAME);
  EXPECT_EQ(got[1].Event().Int("res"), 0);
  EXPECT_EQ(AddressText(got[1].Event(), "addr"), "127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(AddressText(got[2].Event(), "addr"), path);
  EXPECT_EQ(got[3].Event().Int("res"), -ENOTCONN);
  EXPECT_EQ(got[3].Event().Int("fd"), unix_fd);
  EXPECT_EQ(AddressText(got[3].Event(), "addr"), std::nullopt);
  close(fd);
  close(unix_fd);
}

TEST_F(NetworkEventsTest, SendmmsgAndRecvmmsgOfTwoMessages) {
  Listener receiver(AF_INET, SOCK_DGRAM);
  const int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in to = Loopback4(receiver.port());
  ASSERT_EQ(connect(sender, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 0);
  auto session = Start({SYS_sendmmsg, SYS_recvmmsg});
  ASSERT_NE(session, nullptr);
  SetDataCapture(session->handle(), {.io_data = true, .snaplen = 64});
  char a[] = "abc", b[] = "defgh";
  iovec out_iov[2] = {{a, 3}, {b, 5}};
  mmsghdr out[2] = {};
  out[0].msg_hdr.msg_iov = &out_iov[0];
  out[0].msg_hdr.msg_iovlen = 1;
  out[1].msg_hdr.msg_iov = &out_iov[1];
  out[1].msg_hdr.msg_iovlen = 1;
  ASSERT_EQ(sendmmsg(sender, out, 2, MSG_NOSIGNAL), 2);
  char in1[16], in2[16];
  iovec in_iov[2] = {{in1, sizeof(in1)}, {in2, sizeof(in2)}};
  mmsghdr in[2] = {};
  in[0].msg_hdr.msg_iov = &in_iov[0];
  in[0].msg_hdr.msg_iovlen = 1;
  in[1].msg_hdr.msg_iov = &in_iov[1];
  in[1].msg_hdr.msg_iovlen = 1;
  ASSERT_EQ(recvmmsg(receiver.fd(), in, 2, MSG_DONTWAIT, nullptr), 2);
  ASSERT_EQ(in[1].msg_len, 5u);
  ASSERT_EQ(recvmmsg(receiver.fd(), in, 2, MSG_DONTWAIT, nullptr), -1);
  ASSERT_EQ(sendmmsg(-1, out, 2, 0), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 4u);
  const std::string receiver_end = "127.0.0.1:" + std::to_string(receiver.port());
  const engine::DecodedEvent sent = got[0].Event();
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_SENDMMSG);
  EXPECT_EQ(sent.Int("res"), 2);
  EXPECT_EQ(sent.Int("fd"), sender);
  EXPECT_EQ(sent.Int("vlen"), 2);
  EXPECT_EQ(sent.Int("flags"), MSG_NOSIGNAL);
  EXPECT_EQ(sent.Int("size"), 3);
  EXPECT_EQ(sent.String("data"), "abc");
  EXPECT_EQ(sent.Int("msg_len"), 3);
  EXPECT_EQ(TupleText(sent), LocalEnd(sender) + "->" + receiver_end);
  EXPECT_EQ(sent.Int("l4proto"), IPPROTO_UDP);
  EXPECT_EQ(sent.Int("sock_type"), SOCK_DGRAM);
  const engine::DecodedEvent received = got[1].Event();
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_RECVMMSG);
  EXPECT_EQ(received.Int("res"), 2);
  EXPECT_EQ(received.Int("fd"), receiver.fd());
  EXPECT_EQ(received.Int("vlen"), 2);
  EXPECT_EQ(received.Int("flags"), MSG_DONTWAIT);
  EXPECT_EQ(received.Int("size"), 16);
  EXPECT_EQ(received.String("data"), "abc");
  EXPECT_EQ(received.Int("msg_len"), 3);
  EXPECT_EQ(TupleText(received), receiver_end + "->0.0.0.0:0");
  EXPECT_EQ(received.Int("l4proto"), IPPROTO_UDP);
  EXPECT_EQ(received.Raw("msgcontrol").size(), 0u);
  const engine::DecodedEvent empty = got[2].Event();
  EXPECT_EQ(empty.Int("res"), -EAGAIN);
  EXPECT_EQ(empty.Int("size"), std::nullopt);
  EXPECT_EQ(empty.Int("msg_len"), std::nullopt);
  EXPECT_EQ(TupleText(empty), std::nullopt);
  EXPECT_EQ(empty.Int("l4proto"), IPPROTO_UDP);
  const engine::DecodedEvent bad = got[3].Event();
  EXPECT_EQ(bad.Int("res"), -EBADF);
  EXPECT_EQ(bad.Int("fd"), -1);
  EXPECT_EQ(bad.Int("l4proto"), std::nullopt);
  close(sender);
}

TEST_F(NetworkEventsTest, SocketDataIsKeptWhenAskedAndCutAtTheSnaplen) {
  Listener receiver(AF_INET, SOCK_DGRAM);
  const int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_sendto, SYS_recvfrom, SYS_sendmsg, SYS_recvmsg});
  ASSERT_NE(session, nullptr);
  SetDataCapture(session->handle(), {.io_data = true, .snaplen = 4});
  sockaddr_in to = Loopback4(receiver.port());
  ASSERT_EQ(sendto(sender, "hello world", 11, 0, reinterpret_cast<sockaddr*>(&to), sizeof(to)), 11);
  char buf[64];
  ASSERT_EQ(recvfrom(receiver.fd(), buf, sizeof(buf), 0, nullptr, nullptr), 11);
  char a[] = "ab", b[] = "cdefg";
  iovec out_iov[2] = {{a, 2}, {b, 5}};
  msghdr out{};
  out.msg_name = &to;
  out.msg_namelen = sizeof(to);
  out.msg_iov = out_iov;
  out.msg_iovlen = 2;
  ASSERT_EQ(sendmsg(sender, &out, 0), 7);
  char in1[3], in2[20];
  iovec in_iov[2] = {{in1, sizeof(in1)}, {in2, sizeof(in2)}};
  msghdr in{};
  in.msg_iov = in_iov;
  in.msg_iovlen = 2;
  ASSERT_EQ(recvmsg(receiver.fd(), &in, 0), 7);
  ASSERT_EQ(recvfrom(receiver.fd(), buf, sizeof(buf), MSG_DONTWAIT, nullptr, nullptr), -1);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 5u);
  const std::vector<std::pair<uint16_t, std::string>> want = {{KESTREL_EVT_SENDTO, "hell"},
                                                              {KESTREL_EVT_RECVFROM, "hell"},
                                                              {KESTREL_EVT_SENDMSG, "abcd"},
                                                              {KESTREL_EVT_RECVMSG, "abcd"}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].header().type, want[i].first) << i;
    EXPECT_EQ(got[i].Event().String("data"), want[i].second) << i;
    EXPECT_NE(got[i].header().flags & KESTREL_RECORD_TRUNCATED, 0) << i;
  }
  EXPECT_EQ(got[2].Event().Int("size"), 7);
  EXPECT_EQ(got[3].Event().Int("size"), 23);
  // Nothing moved, nothing kept.
  EXPECT_EQ(got[4].Event().Int("res"), -EAGAIN);
  EXPECT_EQ(got[4].Event().String("data"), "");
  EXPECT_EQ(got[4].header().flags & KESTREL_RECORD_TRUNCATED, 0);
  close(sender);
}

TEST_F(NetworkEventsTest, TheFullCaptureRangeKeepsWholeSocketData) {
  Listener in_range(AF_INET, SOCK_DGRAM);
  Listener out_of_range(AF_INET, SOCK_DGRAM);
  const int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  auto session = Start({SYS_sendto, SYS_recvfrom});
  ASSERT_NE(session, nullptr);
  SetDataCapture(session->handle(), {.io_data = true,
                                     .snaplen = 4,
                                     .fullcapture_port_lo = in_range.port(),
                                     .fullcapture_port_hi = in_range.port()});
  const std::string payload(300, 'k');
  char buf[512];
  for (const Listener* to_listener : {&in_range, &out_of_range}) {
    sockaddr_in to = Loopback4(to_listener->port());
    ASSERT_EQ(sendto(sender, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&to),
                     sizeof(to)),
              static_cast<ssize_t>(payload.size()));
    ASSERT_EQ(recvfrom(to_listener->fd(), buf, sizeof(buf), 0, nullptr, nullptr),
              static_cast<ssize_t>(payload.size()));
  }

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 4u);
  // The unconnected sender matches by the port it names; the receiver by
  // its own port.
  for (size_t i : {0, 1}) {
    EXPECT_EQ(got[i].Event().String("data"), payload) << i;
    EXPECT_EQ(got[i].header().flags & KESTREL_RECORD_TRUNCATED, 0) << i;
  }
  for (size_t i : {2, 3}) {
    EXPECT_EQ(got[i].Event().String("data"), "kkkk") << i;
    EXPECT_NE(got[i].header().flags & KESTREL_RECORD_TRUNCATED, 0) << i;
  }
  close(sender);
}

}  // namespace
}  // namespace kestrel::testing
