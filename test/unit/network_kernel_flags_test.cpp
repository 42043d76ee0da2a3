// Flag names of the network and kernel-surface events.
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "engine/decode/flag_sets.h"

namespace kestrel::engine {
namespace {

TEST(NetworkKernelFlagsTest, SocketFamilyAndType) {
  EXPECT_EQ(FormatFlags(KFS_SOCKET_FAMILY, AF_INET6), "AF_INET6");
  EXPECT_EQ(FormatFlags(KFS_SOCKET_FAMILY, AF_UNIX), "AF_UNIX");
  EXPECT_EQ(FormatFlags(KFS_SOCKET_FAMILY, 200), "200");
  EXPECT_EQ(FormatFlags(KFS_SOCKET_TYPE, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC),
            "SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_SOCKET_TYPE, SOCK_DGRAM), "SOCK_DGRAM");
}

TEST(NetworkKernelFlagsTest, AcceptMsgAndShutdown) {
  EXPECT_EQ(FormatFlags(KFS_ACCEPT_FLAGS, SOCK_CLOEXEC), "SOCK_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_ACCEPT_FLAGS, 0), "0");
  EXPECT_EQ(FormatFlags(KFS_MSG_FLAGS, MSG_DONTWAIT | MSG_NOSIGNAL), "MSG_DONTWAIT|MSG_NOSIGNAL");
  EXPECT_EQ(FormatFlags(KFS_MSG_FLAGS, MSG_PEEK | 0x10000000), "MSG_PEEK|0x10000000");
  EXPECT_EQ(FormatFlags(KFS_SHUTDOWN_HOW, SHUT_RDWR), "SHUT_RDWR");
}

TEST(NetworkKernelFlagsTest, SocketFlagsPrintAsFalcosOpenFlags) {
  EXPECT_EQ(FormatFlags(KFS_SOCKET_FLAGS, SOCK_NONBLOCK | SOCK_CLOEXEC), "O_NONBLOCK|O_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_SOCKET_FLAGS, 0), "0");
}

TEST(NetworkKernelFlagsTest, SockoptLevelsAndNames) {
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_LEVEL, SOL_SOCKET), "SOL_SOCKET");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_LEVEL, IPPROTO_TCP), "SOL_TCP");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_LEVEL, IPPROTO_IPV6), "41");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_NAME, SO_TYPE), "SO_TYPE");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_NAME, SO_RCVBUF), "SO_RCVBUF");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_NAME, SO_RCVTIMEO_NEW), "SO_RCVTIMEO");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_NAME, SO_COOKIE), "SO_COOKIE");
  EXPECT_EQ(FormatFlags(KFS_SOCKOPT_NAME, 9999), "9999");
}

TEST(NetworkKernelFlagsTest, BpfCommandsAndSeccompOps) {
  EXPECT_EQ(FormatFlags(KFS_BPF_CMD, BPF_MAP_CREATE), "BPF_MAP_CREATE");
  EXPECT_EQ(FormatFlags(KFS_BPF_CMD, BPF_PROG_LOAD), "BPF_PROG_LOAD");
  EXPECT_EQ(FormatFlags(KFS_BPF_CMD, 9999), "9999");
  EXPECT_EQ(FormatFlags(KFS_SECCOMP_OP, SECCOMP_SET_MODE_FILTER), "SECCOMP_SET_MODE_FILTER");
}

}  // namespace
}  // namespace kestrel::engine
