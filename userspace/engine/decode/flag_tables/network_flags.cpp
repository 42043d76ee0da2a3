// Flag names of network events.
#include <netinet/in.h>
#include <sys/socket.h>

#include "flag_table.h"

namespace kestrel::engine {
namespace {

constexpr FlagName kFamilies[] = {
    {AF_UNSPEC, "AF_UNSPEC"},
    {AF_UNIX, "AF_UNIX"},
    {AF_INET, "AF_INET"},
    {AF_AX25, "AF_AX25"},
    {AF_IPX, "AF_IPX"},
    {AF_APPLETALK, "AF_APPLETALK"},
    {AF_NETROM, "AF_NETROM"},
    {AF_BRIDGE, "AF_BRIDGE"},
    {AF_ATMPVC, "AF_ATMPVC"},
    {AF_X25, "AF_X25"},
    {AF_INET6, "AF_INET6"},
    {AF_ROSE, "AF_ROSE"},
    {AF_DECnet, "AF_DECnet"},
    {AF_NETBEUI, "AF_NETBEUI"},
    {AF_SECURITY, "AF_SECURITY"},
    {AF_KEY, "AF_KEY"},
    {AF_NETLINK, "AF_NETLINK"},
    {AF_PACKET, "AF_PACKET"},
    {AF_ASH, "AF_ASH"},
    {AF_ECONET, "AF_ECONET"},
    {AF_ATMSVC, "AF_ATMSVC"},
    {AF_RDS, "AF_RDS"},
    {AF_SNA, "AF_SNA"},
    {AF_IRDA, "AF_IRDA"},
    {AF_PPPOX, "AF_PPPOX"},
    {AF_WANPIPE, "AF_WANPIPE"},
    {AF_LLC, "AF_LLC"},
    {AF_IB, "AF_IB"},
    {AF_MPLS, "AF_MPLS"},
    {AF_CAN, "AF_CAN"},
    {AF_TIPC, "AF_TIPC"},
    {AF_BLUETOOTH, "AF_BLUETOOTH"},
    {AF_IUCV, "AF_IUCV"},
    {AF_RXRPC, "AF_RXRPC"},
    {AF_ISDN, "AF_ISDN"},
    {AF_PHONET, "AF_PHONET"},
    {AF_IEEE802154, "AF_IEEE802154"},
    {AF_CAIF, "AF_CAIF"},
    {AF_ALG, "AF_ALG"},
    {AF_NFC, "AF_NFC"},
    {AF_VSOCK, "AF_VSOCK"},
    {AF_KCM, "AF_KCM"},
    {AF_QIPCRTR, "AF_QIPCRTR"},
    {AF_SMC, "AF_SMC"},
    {AF_XDP, "AF_XDP"},
    {AF_MCTP, "AF_MCTP"},
};

// The socket type is a field under the low bits; the rest are flags.
constexpr uint64_t kSocketTypeMask = 0xf;
constexpr FlagName kSocketTypes[] = {
    {SOCK_STREAM, "SOCK_STREAM"}, {SOCK_DGRAM, "SOCK_DGRAM"},         {SOCK_RAW, "SOCK_RAW"},
    {SOCK_RDM, "SOCK_RDM"},       {SOCK_SEQPACKET, "SOCK_SEQPACKET"}, {SOCK_DCCP, "SOCK_DCCP"},
    {SOCK_PACKET, "SOCK_PACKET"},
};
constexpr FlagName kSocketFlags[] = {
    {SOCK_NONBLOCK, "SOCK_NONBLOCK"},
    {SOCK_CLOEXEC, "SOCK_CLOEXEC"},
};

constexpr FlagName kMsgFlags[] = {
    {MSG_OOB, "MSG_OOB"},
    {MSG_PEEK, "MSG_PEEK"},
    {MSG_DONTROUTE, "MSG_DONTROUTE"},
    {MSG_CTRUNC, "MSG_CTRUNC"},
    {MSG_PROXY, "MSG_PROXY"},
    {MSG_TRUNC, "MSG_TRUNC"},
    {MSG_DONTWAIT, "MSG_DONTWAIT"},
    {MSG_EOR, "MSG_EOR"},
    {MSG_WAITALL, "MSG_WAITALL"},
    {MSG_FIN, "MSG_FIN"},
    {MSG_SYN, "MSG_SYN"},
    {MSG_CONFIRM, "MSG_CONFIRM"},
    {MSG_RST, "MSG_RST"},
    {MSG_ERRQUEUE, "MSG_ERRQUEUE"},
    {MSG_NOSIGNAL, "MSG_NOSIGNAL"},
    {MSG_MORE, "MSG_MORE"},
    {MSG_WAITFORONE, "MSG_WAITFORONE"},
    {MSG_BATCH, "MSG_BATCH"},
    {MSG_ZEROCOPY, "MSG_ZEROCOPY"},
    {MSG_FASTOPEN, "MSG_FASTOPEN"},
    {MSG_CMSG_CLOEXEC, "MSG_CMSG_CLOEXEC"},
};

constexpr FlagName kShutdownHow[] = {
    {SHUT_RD, "SHUT_RD"},
    {SHUT_WR, "SHUT_WR"},
    {SHUT_RDWR, "SHUT_RDWR"},
};

// Falco prints socket()'s flags with its open-flag names; SOCK_NONBLOCK and
// SOCK_CLOEXEC are O_NONBLOCK and O_CLOEXEC on x86_64.
constexpr FlagName kSocketFlagsAsOpenFlags[] = {
    {SOCK_NONBLOCK, "O_NONBLOCK"},
    {SOCK_CLOEXEC, "O_CLOEXEC"},
};

// Falco names SOL_SOCKET and SOL_TCP; other levels print as numbers.
constexpr FlagName kSockoptLevels[] = {
    {SOL_SOCKET, "SOL_SOCKET"},
    {IPPROTO_TCP, "SOL_TCP"},
};

// SOL_SOCKET option names, as Falco's table spells them. Printed whatever
// the level (a set cannot see its neighbour parameter): read them with the
// level in mind.
constexpr FlagName kSockoptNames[] = {
    {SO_DEBUG, "SO_DEBUG"},
    {SO_REUSEADDR, "SO_REUSEADDR"},
    {SO_TYPE, "SO_TYPE"},
    {SO_ERROR, "SO_ERROR"},
    {SO_DONTROUTE, "SO_DONTROUTE"},
    {SO_BROADCAST, "SO_BROADCAST"},
    {SO_SNDBUF, "SO_SNDBUF"},
    {SO_RCVBUF, "SO_RCVBUF"},
    {SO_KEEPALIVE, "SO_KEEPALIVE"},
    {SO_OOBINLINE, "SO_OOBINLINE"},
    {SO_NO_CHECK, "SO_NO_CHECK"},
    {SO_PRIORITY, "SO_PRIORITY"},
    {SO_LINGER, "SO_LINGER"},
    {SO_BSDCOMPAT, "SO_BSDCOMPAT"},
    {SO_REUSEPORT, "SO_REUSEPORT"},
    {SO_PASSCRED, "SO_PASSCRED"},
    {SO_PEERCRED, "SO_PEERCRED"},
    {SO_RCVLOWAT, "SO_RCVLOWAT"},
    {SO_SNDLOWAT, "SO_SNDLOWAT"},
    {SO_RCVTIMEO_OLD, "SO_RCVTIMEO"},
    {SO_SNDTIMEO_OLD, "SO_SNDTIMEO"},
    {SO_SECURITY_AUTHENTICATION, "SO_SECURITY_AUTHENTICATION"},
    {SO_SECURITY_ENCRYPTION_TRANSPORT, "SO_SECURITY_ENCRYPTION_TRANSPORT"},
    {SO_SECURITY_ENCRYPTION_NETWORK, "SO_SECURITY_ENCRYPTION_NETWORK"},
    {SO_BINDTODEVICE, "SO_BINDTODEVICE"},
    {SO_ATTACH_FILTER, "SO_ATTACH_FILTER"},
    {SO_DETACH_FILTER, "SO_DETACH_FILTER"},
    {SO_PEERNAME, "SO_PEERNAME"},
    {SO_TIMESTAMP_OLD, "SO_TIMESTAMP"},
    {SO_ACCEPTCONN, "SO_ACCEPTCONN"},
    {SO_PEERSEC, "SO_PEERSEC"},
    {SO_SNDBUFFORCE, "SO_SNDBUFFORCE"},
    {SO_RCVBUFFORCE, "SO_RCVBUFFORCE"},
    {SO_PASSSEC, "SO_PASSSEC"},
    {SO_TIMESTAMPNS_OLD, "SO_TIMESTAMPNS"},
    {SO_MARK, "SO_MARK"},
    {SO_TIMESTAMPING_OLD, "SO_TIMESTAMPING"},
    {SO_PROTOCOL, "SO_PROTOCOL"},
    {SO_DOMAIN, "SO_DOMAIN"},
    {SO_RXQ_OVFL, "SO_RXQ_OVFL"},
    {SO_WIFI_STATUS, "SO_WIFI_STATUS"},
    {SO_PEEK_OFF, "SO_PEEK_OFF"},
    {SO_NOFCS, "SO_NOFCS"},
    {SO_LOCK_FILTER, "SO_LOCK_FILTER"},
    {SO_SELECT_ERR_QUEUE, "SO_SELECT_ERR_QUEUE"},
    {SO_BUSY_POLL, "SO_BUSY_POLL"},
    {SO_MAX_PACING_RATE, "SO_MAX_PACING_RATE"},
    {SO_BPF_EXTENSIONS, "SO_BPF_EXTENSIONS"},
    {SO_INCOMING_CPU, "SO_INCOMING_CPU"},
    {SO_ATTACH_BPF, "SO_ATTACH_BPF"},
    {SO_PEERGROUPS, "SO_PEERGROUPS"},
    {SO_MEMINFO, "SO_MEMINFO"},
    {SO_COOKIE, "SO_COOKIE"},
    {SO_RCVTIMEO_NEW, "SO_RCVTIMEO"},
    {SO_SNDTIMEO_NEW, "SO_SNDTIMEO"},
};

}  // namespace

std::optional<FlagTable> NetworkFlagTable(kestrel_flag_set set) {
  switch (set) {
    case KFS_SOCKET_FAMILY:
      return FlagTable{{}, kFamilies, 0};
    case KFS_SOCKET_TYPE:
      return FlagTable{kSocketFlags, kSocketTypes, kSocketTypeMask};
    case KFS_ACCEPT_FLAGS:
      return FlagTable{kSocketFlags, {}, 0};
    case KFS_MSG_FLAGS:
      return FlagTable{kMsgFlags, {}, 0};
    case KFS_SHUTDOWN_HOW:
      return FlagTable{{}, kShutdownHow, 0};
    case KFS_SOCKET_FLAGS:
      return FlagTable{kSocketFlagsAsOpenFlags, {}, 0};
    case KFS_SOCKOPT_LEVEL:
      return FlagTable{{}, kSockoptLevels, 0};
    case KFS_SOCKOPT_NAME:
      return FlagTable{{}, kSockoptNames, 0};
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
