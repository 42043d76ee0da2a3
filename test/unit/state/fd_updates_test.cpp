// Descriptor state from synthetic records: each kind of record that
// creates, copies, changes or closes a descriptor, success and failure.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <csignal>

#include "engine/state/fd_table.h"
#include "engine/state/thread_table.h"
#include "state_records.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::ApplyRecord;
using ::kestrel::testing::EventRecord;
using ::kestrel::testing::Ipv4Address;
using ::kestrel::testing::Ipv4Tuple;
using ::kestrel::testing::NoProcFallback;
using ::kestrel::testing::ParamBytes;
using ::kestrel::testing::Str;
using ::kestrel::testing::UnixAddress;

constexpr uint8_t kLoopback[4] = {127, 0, 0, 1};
constexpr uint8_t kRemote[4] = {10, 1, 2, 3};

class FdUpdatesTest : public ::testing::Test {
 protected:
  FdUpdatesTest() : table_(NoProcFallback()) {
    ThreadInfo t;
    t.tid = t.tgid = 100;
    t.ppid = 1;
    t.comm = "app";
    t.cwd = "/home/u";
    table_.Insert(std::move(t));
  }
  void Apply(uint16_t type, const std::map<std::string, int64_t>& ints,
             const std::map<std::string, ParamBytes>& bytes = {}, uint32_t tid = 100,
             uint32_t tgid = 100) {
    ApplyRecord(table_, EventRecord(type, {.tid = tid, .tgid = tgid}, ints, bytes));
  }
  const FdInfo* Fd(int64_t fd, uint32_t tid = 100) {
    const ThreadInfo* t = table_.Find(tid);
    if (t == nullptr || !t->fds) return nullptr;
    return t->fds->Find(fd);
  }
  size_t FdCount(uint32_t tid = 100) {
    const ThreadInfo* t = table_.Find(tid);
    return t && t->fds ? t->fds->size() : 0;
  }
  ThreadTable table_;
};

TEST_F(FdUpdatesTest, OpenatKeepsTheResolvedPathAndFlags) {
  Apply(KESTREL_EVT_OPENAT,
        {{"fd", 3},
         {"dirfd", AT_FDCWD},
         {"flags", O_RDONLY | O_CLOEXEC},
         {"dev", (8 << 20) | 1},  // the kernel's dev_t of 8:1, as the probe records it
         {"ino", 42}},
        {{"path", Str("/etc/hosts")}});
  const FdInfo* fd = Fd(3);
  ASSERT_NE(fd, nullptr);
  EXPECT_EQ(fd->fd, 3);
  EXPECT_EQ(fd->type, FdType::kFile);
  EXPECT_EQ(fd->name, "/etc/hosts");
  EXPECT_EQ(fd->nameraw, "/etc/hosts");
  EXPECT_EQ(fd->open_flags, static_cast<uint32_t>(O_RDONLY | O_CLOEXEC));
  EXPECT_EQ(fd->dev, 0x801u) << "kept as stat(2)'s st_dev numbers 8:1";
  EXPECT_EQ(fd->ino, 42u);
}

TEST_F(FdUpdatesTest, AFailedOpenAddsNothing) {
  Apply(KESTREL_EVT_OPEN, {{"fd", -2}, {"flags", O_RDONLY}}, {{"path", Str("/nonexistent")}});
  EXPECT_EQ(FdCount(), 0u);
}

TEST_F(FdUpdatesTest, ADirectoryOpenIsADirectory) {
  Apply(KESTREL_EVT_OPEN, {{"fd", 4}, {"flags", O_RDONLY | O_DIRECTORY}}, {{"path", Str("/tmp")}});
  ASSERT_NE(Fd(4), nullptr);
  EXPECT_EQ(Fd(4)->type, FdType::kDirectory);
}

TEST_F(FdUpdatesTest, CreatIsAWriteOpen) {
  Apply(KESTREL_EVT_CREAT, {{"fd", 5}, {"mode", 0644}}, {{"path", Str("/home/u/new")}});
  ASSERT_NE(Fd(5), nullptr);
  EXPECT_EQ(Fd(5)->open_flags, static_cast<uint32_t>(O_CREAT | O_WRONLY | O_TRUNC));
  EXPECT_EQ(Fd(5)->name, "/home/u/new");
}

TEST_F(FdUpdatesTest, CloseForgetsTheDescriptorOnSuccessOnly) {
  Apply(KESTREL_EVT_OPEN, {{"fd", 3}, {"flags", O_RDONLY}}, {{"path", Str("/etc/hosts")}});
  Apply(KESTREL_EVT_CLOSE, {{"res", -9}, {"fd", 3}});
  EXPECT_NE(Fd(3), nullptr);
  Apply(KESTREL_EVT_CLOSE, {{"res", 0}, {"fd", 3}});
  EXPECT_EQ(Fd(3), nullptr);
}

TEST_F(FdUpdatesTest, ThreadsOfOneProcessShareItsTable) {
  ThreadInfo worker;
  worker.tid = 101;
  worker.tgid = 100;
  table_.Insert(worker);
  Apply(KESTREL_EVT_OPEN, {{"fd", 3}, {"flags", O_RDONLY}}, {{"path", Str("/etc/hosts")}}, 101,
        100);
  ASSERT_NE(Fd(3, 100), nullptr) << "the leader sees what its thread opened";
  EXPECT_EQ(Fd(3, 100)->name, "/etc/hosts");
}

TEST_F(FdUpdatesTest, SocketTakesFamilyTypeAndProtocol) {
  Apply(KESTREL_EVT_SOCKET,
        {{"fd", 3}, {"domain", AF_INET}, {"type", SOCK_STREAM | SOCK_CLOEXEC}, {"proto", 0}});
  Apply(KESTREL_EVT_SOCKET, {{"fd", 4}, {"domain", AF_INET6}, {"type", SOCK_DGRAM}, {"proto", 0}});
  Apply(KESTREL_EVT_SOCKET, {{"fd", 5}, {"domain", AF_UNIX}, {"type", SOCK_STREAM}, {"proto", 0}});
  Apply(KESTREL_EVT_SOCKET, {{"fd", -97}, {"domain", 99}, {"type", SOCK_STREAM}, {"proto", 0}});
  ASSERT_NE(Fd(3), nullptr);
  EXPECT_EQ(Fd(3)->type, FdType::kIpv4Socket);
  EXPECT_EQ(Fd(3)->family, AF_INET);
  EXPECT_EQ(Fd(3)->sock_type, SOCK_STREAM);
  EXPECT_EQ(Fd(3)->l4proto, IPPROTO_TCP);
  EXPECT_EQ(Fd(3)->open_flags, static_cast<uint32_t>(O_CLOEXEC));
  ASSERT_NE(Fd(4), nullptr);
  EXPECT_EQ(Fd(4)->type, FdType::kIpv6Socket);
  EXPECT_EQ(Fd(4)->l4proto, IPPROTO_UDP);
  ASSERT_NE(Fd(5), nullptr);
  EXPECT_EQ(Fd(5)->type, FdType::kUnixSocket);
  EXPECT_EQ(Fd(5)->l4proto, 0);
  EXPECT_EQ(FdCount(), 3u);
}

TEST_F(FdUpdatesTest, SocketpairAddsBothEnds) {
  Apply(KESTREL_EVT_SOCKETPAIR, {{"res", 0},
                                 {"domain", AF_UNIX},
                                 {"type", SOCK_STREAM},
                                 {"proto", 0},
                                 {"fd1", 6},
                                 {"fd2", 7}});
  ASSERT_NE(Fd(6), nullptr);
  ASSERT_NE(Fd(7), nullptr);
  EXPECT_EQ(Fd(6)->type, FdType::kUnixSocket);
  EXPECT_EQ(Fd(7)->type, FdType::kUnixSocket);
}

TEST_F(FdUpdatesTest, ConnectNamesTheSocketByItsTuple) {
  Apply(KESTREL_EVT_SOCKET, {{"fd", 3}, {"domain", AF_INET}, {"type", SOCK_STREAM}, {"proto", 0}});
  Apply(
      KESTREL_EVT_CONNECT, {{"res", 0}, {"fd", 3}},
      {{"addr", Ipv4Address(kRemote, 443)}, {"tuple", Ipv4Tuple(kLoopback, 40000, kRemote, 443)}});
  const FdInfo* fd = Fd(3);
  ASSERT_NE(fd, nullptr);
  EXPECT_EQ(fd->name, "127.0.0.1:40000->10.1.2.3:443");
  EXPECT_TRUE(fd->connected);
  EXPECT_FALSE(fd->is_server);
  EXPECT_EQ(fd->l4proto, IPPROTO_TCP);
  EXPECT_EQ(fd->local.port, 40000);
  EXPECT_EQ(fd->remote.address, "10.1.2.3");
}

TEST_F(FdUpdatesTest, AFailedConnectLeavesTheSocketUnconnected) {
  Apply(KESTREL_EVT_SOCKET, {{"fd", 3}, {"domain", AF_INET}, {"type", SOCK_STREAM}, {"proto", 0}});
  Apply(
      KESTREL_EVT_CONNECT, {{"res", -111}, {"fd", 3}},
      {{"addr", Ipv4Address(kRemote, 443)}, {"tuple", Ipv4Tuple(kLoopback, 40000, kRemote, 443)}});
  ASSERT_NE(Fd(3), nullptr);
  EXPECT_FALSE(Fd(3)->connected);
  EXPECT_EQ(Fd(3)->name, "");
}

TEST_F(FdUpdatesTest, AUdpSocketConnectedElsewhereChangesItsName) {
  const auto at = [&](uint64_t ts, uint16_t type, const std::map<std::string, int64_t>& ints,
                      const std::map<std::string, ParamBytes>& bytes = {}) {
    const std::vector<uint8_t> record =
        EventRecord(type, {.tid = 100, .tgid = 100, .ts_ns = ts}, ints, bytes);
    ApplyRecord(table_, record);
    return *reinterpret_cast<const kestrel_record_header*>(record.data());
  };
  const kestrel_record_header socket = at(
      10, KESTREL_EVT_SOCKET, {{"fd", 3}, {"domain", AF_INET}, {"type", SOCK_DGRAM}, {"proto", 0}});
  EXPECT_FALSE(table_.FdNameChangedBy(socket)) << "a new descriptor had no name to change";
  const kestrel_record_header first = at(20, KESTREL_EVT_CONNECT, {{"res", 0}, {"fd", 3}},
                                         {{"tuple", Ipv4Tuple(kLoopback, 40000, kRemote, 53)}});
  EXPECT_TRUE(table_.FdNameChangedBy(first)) << "unnamed before, named after";
  const kestrel_record_header same = at(30, KESTREL_EVT_CONNECT, {{"res", 0}, {"fd", 3}},
                                        {{"tuple", Ipv4Tuple(kLoopback, 40000, kRemote, 53)}});
  EXPECT_FALSE(table_.FdNameChangedBy(same));
  const kestrel_record_header moved = at(40, KESTREL_EVT_CONNECT, {{"res", 0}, {"fd", 3}},
                                         {{"tuple", Ipv4Tuple(kLoopback, 40000, kRemote, 5353)}});
  EXPECT_TRUE(table_.FdNameChangedBy(moved));
  EXPECT_FALSE(table_.FdNameChangedBy(first)) << "only the last record applied";
  const kestrel_record_header close = at(50, KESTREL_EVT_CLOSE, {{"res", 0}, {"fd", 3}});
  EXPECT_FALSE(table_.FdNameChangedBy(close));
}

TEST_F(FdUpdatesTest, AcceptedSocketIsTheServersEndOfTheListener) {
  Apply(KESTREL_EVT_SOCKET, {{"fd", 3}, {"domain", AF_INET}, {"type", SOCK_STREAM}, {"proto", 0}});
  Apply(KESTREL_EVT_BIND, {{"res", 0}, {"fd", 3}}, {{"addr", Ipv4Address(kLoopback, 8080)}});
  Apply(KESTREL_EVT_LISTEN, {{"res", 0}, {"fd", 3}, {"backlog", 16}});
  EXPECT_TRUE(Fd(3)->is_server);
  EXPECT_EQ(Fd(3)->local.port, 8080);
  Apply(KESTREL_EVT_ACCEPT4, {{"fd", 4}, {"listen_fd", 3}, {"flags", SOCK_CLOEXEC}},
        {{"tuple", Ipv4Tuple(kLoopback, 8080, kRemote, 51000)}});
  const FdInfo* fd = Fd(4);
  ASSERT_NE(fd, nullptr);
  EXPECT_EQ(fd->type, FdType::kIpv4Socket);
  EXPECT_EQ(fd->name, "10.1.2.3:51000->127.0.0.1:8080");
  EXPECT_TRUE(fd->is_server);
  EXPECT_TRUE(fd->connected);
  EXPECT_EQ(fd->l4proto, IPPROTO_TCP);
  EXPECT_EQ(fd->open_flags, static_cast<uint32_t>(O_CLOEXEC));
  Apply(KESTREL_EVT_ACCEPT, {{"fd", -11}, {"listen_fd", 3}},
        {{"tuple", Ipv4Tuple(kLoopback, 8080, kRemote, 51001)}});
  EXPECT_EQ(FdCount(), 2u);
}

TEST_F(FdUpdatesTest, BindOfAUnixSocketNamesItByPath) {
  Apply(KESTREL_EVT_SOCKET, {{"fd", 3}, {"domain", AF_UNIX}, {"type", SOCK_STREAM}, {"proto", 0}});
  Apply(KESTREL_EVT_BIND, {{"res", 0}, {"fd", 3}}, {{"addr", UnixAddress("/run/app.sock")}});
  EXPECT_EQ(Fd(3)->name, "/run/app.sock");
}

TEST_F(FdUpdatesTest, DupCopiesTheEntryWithoutCloseOnExec) {
  Apply(KESTREL_EVT_SOCKET, {{"fd", 3}, {"domain", AF_INET}, {"type", SOCK_STREAM}, {"proto", 0}});
  Apply(KESTREL_EVT_CONNECT, {{"res", 0}, {"fd", 3}},
        {{"tuple", Ipv4Tuple(kLoopback, 40000, kRemote, 443)}});
  Apply(KESTREL_EVT_DUP, {{"res", 5}, {"oldfd", 3}});
  Apply(KESTREL_EVT_DUP2, {{"res", 6}, {"oldfd", 3}, {"newfd", 6}});
  Apply(KESTREL_EVT_DUP3, {{"res", 7}, {"oldfd", 3}, {"newfd", 7}, {"flags", O_CLOEXEC}});
  Apply(KESTREL_EVT_DUP, {{"res", -9}, {"oldfd", 30}});
  for (int64_t fd : {5, 6, 7}) {
    ASSERT_NE(Fd(fd), nullptr) << fd;
    EXPECT_EQ(Fd(fd)->fd, fd);
    EXPECT_EQ(Fd(fd)->name, "127.0.0.1:40000->10.1.2.3:443") << fd;
    EXPECT_EQ(Fd(fd)->type, FdType::kIpv4Socket) << fd;
  }
  EXPECT_EQ(Fd(5)->open_flags & O_CLOEXEC, 0u);
  EXPECT_EQ(Fd(7)->open_flags & O_CLOEXEC, static_cast<uint32_t>(O_CLOEXEC));
  EXPECT_EQ(FdCount(), 4u);
}

TEST_F(FdUpdatesTest, Dup2OverAnOpenDescriptorReplacesIt) {
  Apply(KESTREL_EVT_OPEN, {{"fd", 3}, {"flags", O_RDONLY}}, {{"path", Str("/etc/hosts")}});
  Apply(KESTREL_EVT_OPEN, {{"fd", 4}, {"flags", O_RDONLY}}, {{"path", Str("/etc/passwd")}});
  Apply(KESTREL_EVT_DUP2, {{"res", 4}, {"oldfd", 3}, {"newfd", 4}});
  EXPECT_EQ(Fd(4)->name, "/etc/hosts");
  Apply(KESTREL_EVT_DUP2, {{"res", 4}, {"oldfd", 99}, {"newfd", 4}});
  EXPECT_EQ(Fd(4), nullptr) << "copied from a descriptor not known: not known either";
}

TEST_F(FdUpdatesTest, FcntlDupfdCopiesAndSetfdTogglesCloseOnExec) {
  Apply(KESTREL_EVT_OPEN, {{"fd", 3}, {"flags", O_RDONLY}}, {{"path", Str("/etc/hosts")}});
  Apply(KESTREL_EVT_FCNTL, {{"res", 10}, {"fd", 3}, {"cmd", F_DUPFD_CLOEXEC}, {"arg", 10}});
  ASSERT_NE(Fd(10), nullptr);
  EXPECT_EQ(Fd(10)->name, "/etc/hosts");
  EXPECT_EQ(Fd(10)->open_flags & O_CLOEXEC, static_cast<uint32_t>(O_CLOEXEC));
  Apply(KESTREL_EVT_FCNTL, {{"res", 11}, {"fd", 3}, {"cmd", F_DUPFD}, {"arg", 11}});
  ASSERT_NE(Fd(11), nullptr);
  EXPECT_EQ(Fd(11)->open_flags & O_CLOEXEC, 0u);
  Apply(KESTREL_EVT_FCNTL, {{"res", 0}, {"fd", 3}, {"cmd", F_SETFD}, {"arg", FD_CLOEXEC}});
  EXPECT_EQ(Fd(3)->open_flags & O_CLOEXEC, static_cast<uint32_t>(O_CLOEXEC));
  Apply(KESTREL_EVT_FCNTL, {{"res", 0}, {"fd", 3}, {"cmd", F_GETFL}, {"arg", 0}});
  EXPECT_EQ(FdCount(), 3u);
}

TEST_F(FdUpdatesTest, MemfdIsNamedAfterItsName) {
  Apply(KESTREL_EVT_MEMFD_CREATE, {{"fd", 8}, {"flags", MFD_CLOEXEC}}, {{"name", Str("payload")}});
  ASSERT_NE(Fd(8), nullptr);
  EXPECT_EQ(Fd(8)->type, FdType::kMemfd);
  EXPECT_EQ(Fd(8)->name, "memfd:payload");
  EXPECT_EQ(Fd(8)->open_flags, static_cast<uint32_t>(O_CLOEXEC));
  Apply(KESTREL_EVT_MEMFD_CREATE, {{"fd", -24}, {"flags", 0}}, {{"name", Str("x")}});
  EXPECT_EQ(FdCount(), 1u);
}

TEST_F(FdUpdatesTest, ForkedChildGetsACopyCloneFilesShares) {
  Apply(KESTREL_EVT_OPEN, {{"fd", 3}, {"flags", O_RDONLY}}, {{"path", Str("/etc/hosts")}});
  Apply(KESTREL_EVT_FORK, {{"res", 200}, {"child_tid", 200}, {"child_pid", 200}});
  Apply(KESTREL_EVT_CLONE,
        {{"res", 300}, {"child_tid", 300}, {"child_pid", 300}, {"flags", CLONE_FILES | SIGCHLD}});
  ASSERT_NE(Fd(3, 200), nullptr);
  ASSERT_NE(Fd(3, 300), nullptr);
  Apply(KESTREL_EVT_CLOSE, {{"res", 0}, {"fd", 3}}, {}, 200, 200);
  EXPECT_EQ(Fd(3, 200), nullptr);
  EXPECT_NE(Fd(3, 100), nullptr) << "the fork's close is its own";
  Apply(KESTREL_EVT_CLOSE, {{"res", 0}, {"fd", 3}}, {}, 300, 300);
  EXPECT_EQ(Fd(3, 100), nullptr) << "a CLONE_FILES child closes the parent's too";
}

TEST_F(FdUpdatesTest, ExecClosesCloseOnExecDescriptors) {
  Apply(KESTREL_EVT_OPEN, {{"fd", 3}, {"flags", O_RDONLY}}, {{"path", Str("/etc/hosts")}});
  Apply(KESTREL_EVT_OPEN, {{"fd", 4}, {"flags", O_RDONLY | O_CLOEXEC}},
        {{"path", Str("/etc/passwd")}});
  Apply(KESTREL_EVT_EXECVE, {{"res", -2}}, {{"comm", Str("app")}});
  EXPECT_NE(Fd(4), nullptr) << "a failed exec closes nothing";
  Apply(KESTREL_EVT_EXECVE, {{"res", 0}, {"ppid", 1}},
        {{"comm", Str("cat")}, {"exe", Str("/usr/bin/cat")}});
  EXPECT_NE(Fd(3), nullptr);
  EXPECT_EQ(Fd(4), nullptr);
}

TEST_F(FdUpdatesTest, RecordsThatChangeNothingLeaveNoTable) {
  Apply(KESTREL_EVT_READ, {{"res", 10}, {"fd", 3}, {"size", 10}});
  Apply(KESTREL_EVT_MMAP, {{"res", 4096}, {"fd", -1}});
  EXPECT_EQ(table_.Find(100)->fds, nullptr);
}

}  // namespace
}  // namespace kestrel::engine
