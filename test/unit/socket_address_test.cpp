// Socket addresses decode to the text inet_ntop gives: IPv4 is formatted
// without it (glibc's goes through sprintf), so every octet width is
// checked against it.
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/decode/event_decoder.h"
#include "shared/event_types.h"

namespace kestrel::engine {
namespace {

// A KPT_SOCKADDR of `family` holding `address` (4 or 16 bytes) and `port`.
std::vector<uint8_t> Sockaddr(uint8_t family, const uint8_t* address, size_t size, uint16_t port) {
  std::vector<uint8_t> raw(1 + size + sizeof(port));
  raw[0] = family;
  std::memcpy(raw.data() + 1, address, size);
  std::memcpy(raw.data() + 1 + size, &port, sizeof(port));
  return raw;
}

std::string InetNtop(int family, const uint8_t* address) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(family, address, text, sizeof(text));
  return text;
}

TEST(SocketAddressTest, Ipv4TextIsInetNtops) {
  const std::vector<std::array<uint8_t, 4>> addresses = {
      {0, 0, 0, 0},      {127, 0, 0, 1},    {255, 255, 255, 255}, {10, 0, 100, 5},
      {192, 168, 1, 10}, {9, 99, 100, 199}, {1, 20, 205, 250},
  };
  for (const std::array<uint8_t, 4>& a : addresses) {
    const std::optional<SocketAddress> decoded =
        DecodeSocketAddress(Sockaddr(KESTREL_AF_INET, a.data(), a.size(), 8080));
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(decoded->address, InetNtop(AF_INET, a.data()));
    EXPECT_EQ(decoded->port, 8080);
  }
}

TEST(SocketAddressTest, Ipv6TextIsInetNtops) {
  std::array<uint8_t, 16> a{};
  a[15] = 1;
  const std::optional<SocketAddress> decoded =
      DecodeSocketAddress(Sockaddr(KESTREL_AF_INET6, a.data(), a.size(), 443));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->address, "::1");
  EXPECT_EQ(decoded->ToString(), "[::1]:443");
}

}  // namespace
}  // namespace kestrel::engine
