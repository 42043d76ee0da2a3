#include "engine/filter/ip_network.h"

#include <arpa/inet.h>

#include <cstring>

#include "absl/strings/numbers.h"
#include "engine/filter/scanner.h"

namespace kestrel::engine::filter {

std::optional<IpAddress> ParseIpAddress(std::string_view text) {
  // inet_pton wants NUL-terminated text; no address is longer than this.
  char buf[INET6_ADDRSTRLEN];
  if (text.empty() || text.size() >= sizeof(buf)) return std::nullopt;
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
  IpAddress a;
  const bool v6 = text.find(':') != std::string_view::npos;
  if (inet_pton(v6 ? AF_INET6 : AF_INET, buf, a.bytes.data()) != 1) return std::nullopt;
  a.size = v6 ? 16 : 4;
  return a;
}

bool IpNetwork::Contains(const IpAddress& a) const {
  if (a.size != base.size) return false;
  const uint8_t whole = prefix_bits / 8;
  if (std::memcmp(a.bytes.data(), base.bytes.data(), whole) != 0) return false;
  const uint8_t rest = prefix_bits % 8;
  if (rest == 0) return true;
  const auto mask = static_cast<uint8_t>(0xFF << (8 - rest));
  return (a.bytes[whole] & mask) == (base.bytes[whole] & mask);
}

std::optional<IpNetwork> ParseIpNetwork(std::string_view text) {
  const size_t slash = text.find('/');
  std::optional<IpAddress> base = ParseIpAddress(text.substr(0, slash));
  if (!base) return std::nullopt;
  IpNetwork net{*base, static_cast<uint8_t>(base->size * 8)};
  if (slash == std::string_view::npos) return net;
  uint32_t bits = 0;
  if (!absl::SimpleAtoi(Sv(text.substr(slash + 1)), &bits) || bits > net.prefix_bits) {
    return std::nullopt;
  }
  net.prefix_bits = static_cast<uint8_t>(bits);
  return net;
}

}  // namespace kestrel::engine::filter
