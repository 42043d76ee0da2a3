// IP addresses and networks as conditions compare them (fd.sip = 127.0.0.1,
// fd.net in (10.0.0.0/8, fd00::/8)): literals are parsed once at compile
// time, field values (the state's text addresses) once per comparison.
#ifndef KESTREL_ENGINE_FILTER_IP_NETWORK_H_
#define KESTREL_ENGINE_FILTER_IP_NETWORK_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kestrel::engine::filter {

struct IpAddress {
  uint8_t size = 0;  // 4 or 16 bytes
  std::array<uint8_t, 16> bytes{};
};

// "127.0.0.1" or "::1"; nullopt for anything else.
std::optional<IpAddress> ParseIpAddress(std::string_view text);

struct IpNetwork {
  IpAddress base;
  uint8_t prefix_bits = 0;

  // Same family, and the first prefix_bits bits agree.
  bool Contains(const IpAddress& a) const;
};

// "10.0.0.0/8", "fd00::/8", or a plain address (a network of that one
// address); nullopt for anything else, or a prefix longer than the address.
std::optional<IpNetwork> ParseIpNetwork(std::string_view text);

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_IP_NETWORK_H_
