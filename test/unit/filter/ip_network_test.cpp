// Addresses and networks as conditions spell them, and which addresses a
// network holds.
#include "engine/filter/ip_network.h"

#include <gtest/gtest.h>

namespace kestrel::engine::filter {
namespace {

bool Holds(std::string_view network, std::string_view address) {
  const std::optional<IpNetwork> net = ParseIpNetwork(network);
  const std::optional<IpAddress> a = ParseIpAddress(address);
  EXPECT_TRUE(net.has_value()) << network;
  EXPECT_TRUE(a.has_value()) << address;
  return net && a && net->Contains(*a);
}

TEST(IpNetworkTest, ParsesAddresses) {
  const std::optional<IpAddress> v4 = ParseIpAddress("10.1.2.3");
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->size, 4);
  EXPECT_EQ(v4->bytes[0], 10);
  EXPECT_EQ(v4->bytes[3], 3);
  const std::optional<IpAddress> v6 = ParseIpAddress("::1");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->size, 16);
  EXPECT_EQ(v6->bytes[15], 1);
  for (const char* bad : {"", "10.1.2", "10.1.2.256", "localhost", "1.2.3.4 ", "::g", "10.0.0.0/8",
                          "0123456789012345678901234567890123456789012345678"}) {
    EXPECT_FALSE(ParseIpAddress(bad).has_value()) << bad;
  }
}

TEST(IpNetworkTest, ParsesNetworks) {
  const std::optional<IpNetwork> net = ParseIpNetwork("192.168.0.0/16");
  ASSERT_TRUE(net.has_value());
  EXPECT_EQ(net->prefix_bits, 16);
  EXPECT_EQ(ParseIpNetwork("10.0.0.1")->prefix_bits, 32) << "an address is a network of one";
  EXPECT_EQ(ParseIpNetwork("fd00::/8")->prefix_bits, 8);
  EXPECT_EQ(ParseIpNetwork("::1")->prefix_bits, 128);
  for (const char* bad :
       {"10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x", "/8", "x/8", "10.0.0.0/-1"}) {
    EXPECT_FALSE(ParseIpNetwork(bad).has_value()) << bad;
  }
}

TEST(IpNetworkTest, ContainsComparesThePrefixBits) {
  EXPECT_TRUE(Holds("10.0.0.0/8", "10.255.1.2"));
  EXPECT_FALSE(Holds("10.0.0.0/8", "11.0.0.1"));
  EXPECT_TRUE(Holds("172.16.0.0/12", "172.31.255.255"));
  EXPECT_FALSE(Holds("172.16.0.0/12", "172.32.0.0"));
  EXPECT_TRUE(Holds("10.0.0.4/30", "10.0.0.7"));
  EXPECT_FALSE(Holds("10.0.0.4/30", "10.0.0.8"));
  EXPECT_TRUE(Holds("0.0.0.0/0", "8.8.8.8"));
  EXPECT_TRUE(Holds("10.0.0.1", "10.0.0.1"));
  EXPECT_FALSE(Holds("10.0.0.1", "10.0.0.2"));
  EXPECT_TRUE(Holds("fd00::/8", "fdab::1"));
  EXPECT_FALSE(Holds("fd00::/8", "fe80::1"));
  EXPECT_TRUE(Holds("2001:db8::/33", "2001:db8:7fff::1"));
  EXPECT_FALSE(Holds("2001:db8::/33", "2001:db8:8000::1"));
  EXPECT_TRUE(Holds("::/0", "::1"));
  EXPECT_FALSE(Holds("::/0", "127.0.0.1")) << "families never mix";
  EXPECT_FALSE(Holds("0.0.0.0/0", "::1"));
}

}  // namespace
}  // namespace kestrel::engine::filter
