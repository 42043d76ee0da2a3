// Flag names of network events.
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
    default:
      return std::nullopt;
  }
}

}  // namespace kestrel::engine
