// Falco's network fields in conditions: addresses and CIDR networks parsed
// at compile time, and fd.ip, fd.port, fd.net matching either end of the
// socket (`!=` only when neither end equals), on the synthetic system's
// sockets: fd 4 a client 10.0.0.5:40000 -> 127.0.0.1:8080, fd 5 the server
// end 192.168.1.9:51000 -> 192.168.1.2:22, fd 6 a unix socket, fd 7 a
// client fd00::5:40001 -> ::1:443.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "condition_test.h"
#include "engine/dns/address_names.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ReturnName;

class NetworkConditionsTest : public testing::ConditionTest {
 protected:
  void WriteTo(int64_t fd) {
    sys_.SetEvent(CatRecord(KESTREL_EVT_WRITE, {{ReturnName(KESTREL_EVT_WRITE), 5}, {"fd", fd}}));
  }
};

TEST_F(NetworkConditionsTest, AddressesCompareWithIpv4Literals) {
  WriteTo(4);
  EXPECT_TRUE(Eval("fd.sip = 127.0.0.1"));
  EXPECT_TRUE(Eval("fd.sip = \"127.0.0.1\""));
  EXPECT_TRUE(Eval("fd.sip == 127.0.0.1 and fd.cip = 10.0.0.5"));
  EXPECT_FALSE(Eval("fd.sip = 127.0.0.2"));
  EXPECT_TRUE(Eval("fd.sip != 127.0.0.2"));
  EXPECT_FALSE(Eval("fd.sip != 127.0.0.1"));
  EXPECT_TRUE(Eval("fd.lip = 10.0.0.5 and fd.rip = 127.0.0.1"));
  EXPECT_TRUE(Eval("fd.sip in (1.2.3.4, 127.0.0.1)"));
  EXPECT_FALSE(Eval("fd.sip in (1.2.3.4, 10.0.0.5)"));
  EXPECT_FALSE(Eval("fd.sip = ::1")) << "an IPv4 address is no IPv6 address";
  WriteTo(5);
  EXPECT_TRUE(Eval("fd.sip = 192.168.1.2 and fd.cip = 192.168.1.9"));
  EXPECT_TRUE(Eval("fd.lip = 192.168.1.2 and fd.rip = 192.168.1.9"));
}

TEST_F(NetworkConditionsTest, AddressesCompareWithIpv6Literals) {
  WriteTo(7);
  EXPECT_TRUE(Eval("fd.sip = ::1"));
  EXPECT_TRUE(Eval("fd.sip = \"::1\""));
  EXPECT_TRUE(Eval("fd.sip = \"0:0:0:0:0:0:0:1\"")) << "addresses compare as bytes, not text";
  EXPECT_TRUE(Eval("fd.cip = fd00::5"));
  EXPECT_FALSE(Eval("fd.sip = 127.0.0.1"));
  EXPECT_TRUE(Eval("fd.ip = \"::1\" and fd.ip = fd00::5"));
  EXPECT_FALSE(Eval("fd.ip = fd00::6"));
}

TEST_F(NetworkConditionsTest, NetworksCompareWithCidrs) {
  WriteTo(4);
  EXPECT_TRUE(Eval("fd.snet = 127.0.0.0/8"));
  EXPECT_FALSE(Eval("fd.snet = 10.0.0.0/8"));
  EXPECT_TRUE(Eval("fd.snet != 10.0.0.0/8"));
  EXPECT_TRUE(Eval("fd.cnet = 10.0.0.0/8"));
  EXPECT_TRUE(Eval("fd.cnet = 10.0.0.4/30")) << "the bits past the prefix do not count";
  EXPECT_FALSE(Eval("fd.cnet = 10.0.0.0/30"));
  EXPECT_TRUE(Eval("fd.cnet = 10.0.0.5")) << "an address is a network of one";
  EXPECT_TRUE(Eval("fd.cnet = 0.0.0.0/0"));
  EXPECT_FALSE(Eval("fd.snet in (10.0.0.0/8, 192.168.0.0/16)"));
  EXPECT_TRUE(Eval("fd.cnet in (10.0.0.0/8, 192.168.0.0/16)"));
  EXPECT_TRUE(Eval("fd.lnet = 0.0.0.0/0 and fd.rnet = 0.0.0.0/0"));
  EXPECT_FALSE(Eval("fd.lnet = ::/0 or fd.rnet = ::/0")) << "IPv4 is never in an IPv6 network";
  WriteTo(5);
  EXPECT_TRUE(Eval("fd.snet in (10.0.0.0/8, 192.168.0.0/16)"));
  WriteTo(7);
  EXPECT_TRUE(Eval("fd.cnet = fd00::/8"));
  EXPECT_TRUE(Eval("fd.snet = ::1/128"));
  EXPECT_FALSE(Eval("fd.snet = fd00::/8"));
  EXPECT_FALSE(Eval("fd.cnet = 10.0.0.0/8"));
  EXPECT_FALSE(Eval("fd.cnet = 0.0.0.0/0")) << "an IPv4 network holds no IPv6 address";
  EXPECT_TRUE(Eval("fd.cnet = ::/0"));
}

TEST_F(NetworkConditionsTest, FdIpAndFdNetMatchEitherEnd) {
  WriteTo(4);
  EXPECT_TRUE(Eval("fd.ip = 10.0.0.5"));
  EXPECT_TRUE(Eval("fd.ip = 127.0.0.1"));
  EXPECT_FALSE(Eval("fd.ip = 1.2.3.4"));
  EXPECT_TRUE(Eval("fd.ip in (1.2.3.4, 127.0.0.1)"));
  // Falco: `!=` holds only when neither end equals.
  EXPECT_FALSE(Eval("fd.ip != 10.0.0.5"));
  EXPECT_FALSE(Eval("fd.ip != 127.0.0.1"));
  EXPECT_TRUE(Eval("fd.ip != 1.2.3.4"));
  EXPECT_TRUE(Eval("fd.net = 10.0.0.0/8"));
  EXPECT_TRUE(Eval("fd.net = 127.0.0.0/8"));
  EXPECT_FALSE(Eval("fd.net = 192.168.0.0/16"));
  EXPECT_TRUE(Eval("fd.net in (192.168.0.0/16, 127.0.0.0/8)"));
  EXPECT_FALSE(Eval("fd.net != 10.0.0.0/8"));
  EXPECT_TRUE(Eval("fd.net != 192.168.0.0/16"));
  EXPECT_TRUE(Eval("not fd.net in (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) or fd.ip exists"));
}

TEST_F(NetworkConditionsTest, FdPortMatchesEitherEnd) {
  WriteTo(4);
  EXPECT_TRUE(Eval("fd.port = 8080"));
  EXPECT_TRUE(Eval("fd.port = 40000"));
  EXPECT_FALSE(Eval("fd.port = 22"));
  EXPECT_FALSE(Eval("fd.port != 8080"));
  EXPECT_TRUE(Eval("fd.port != 22"));
  EXPECT_TRUE(Eval("fd.port in (22, 8080)"));
  EXPECT_FALSE(Eval("fd.port in (22, 443)"));
  EXPECT_TRUE(Eval("fd.port > 30000"));
  EXPECT_FALSE(Eval("fd.port < 1024"));
  EXPECT_TRUE(Eval("fd.port exists"));
  filter::FieldRef port;
  port.name = "fd.port";
  std::string text;
  ASSERT_TRUE(sys_.extractor().ReadText(*sys_.registry().Resolve(port), text));
  EXPECT_EQ(text, "40000 8080");
}

TEST_F(NetworkConditionsTest, NonIpSocketsHaveNoAddress) {
  WriteTo(6);
  EXPECT_FALSE(Eval("fd.ip exists"));
  EXPECT_FALSE(Eval("fd.ip = 127.0.0.1"));
  EXPECT_FALSE(Eval("fd.ip != 127.0.0.1"));
  EXPECT_FALSE(Eval("fd.net != 10.0.0.0/8"));
  EXPECT_FALSE(Eval("fd.port != 22"));
  EXPECT_FALSE(Eval("fd.sip != 1.2.3.4"));
}

TEST_F(NetworkConditionsTest, LiteralsAreCheckedAtCompileTime) {
  const std::string bad_address = CompileError("fd.sip = 300.1.1.1");
  EXPECT_NE(bad_address.find("'300.1.1.1' is not an IP address"), std::string::npos) << bad_address;
  EXPECT_NE(CompileError("fd.ip in (127.0.0.1, localhost)").find("'localhost' is not an IP"),
            std::string::npos);
  EXPECT_NE(CompileError("fd.sip = 10.0.0.0/8").find("not an IP address"), std::string::npos)
      << "an address field takes addresses, fd.snet takes networks";
  EXPECT_NE(CompileError("fd.net = 10.0.0.0/33").find("is not an IP network"), std::string::npos);
  EXPECT_NE(CompileError("fd.snet = ::/129").find("is not an IP network"), std::string::npos);
  EXPECT_NE(CompileError("fd.snet = 10.0.0.0/x").find("is not an IP network"), std::string::npos);
  EXPECT_NE(CompileError("fd.sip contains 127").find("'contains' does not apply to fd.sip"),
            std::string::npos);
  EXPECT_NE(CompileError("fd.net startswith 10").find("does not apply"), std::string::npos);
  EXPECT_NE(CompileError("fd.sip = val(fd.cip)").find("address literals only"), std::string::npos);
  EXPECT_NE(CompileError("tolower(fd.sip) = x").find("tolower() does not take"), std::string::npos);
}

// fd.*ip.name holds the watched names an address resolves to, so a name
// matches a connection to any of its addresses; here resolved by a table
// standing in for DNS.
TEST_F(NetworkConditionsTest, NamesMatchTheAddressesTheyResolveTo) {
  const std::map<std::string, std::vector<std::string>> dns = {
      {"api.example", {"127.0.0.1", "::1"}},
      {"client.example", {"10.0.0.5"}},
      {"elsewhere.example", {"192.0.2.1"}},
  };
  dns::AddressNames names({.resolve = [&](const std::string& name) {
    const auto it = dns.find(name);
    return it == dns.end() ? std::vector<std::string>{} : it->second;
  }});
  names.Watch({"api.example", "client.example", "elsewhere.example", "nowhere.example"});
  names.WaitResolved();
  sys_.extractor().SetAddressNames(&names);
  WriteTo(4);
  EXPECT_TRUE(Eval("fd.sip.name = api.example"));
  EXPECT_TRUE(Eval("fd.rip.name = api.example and fd.lip.name = client.example"));
  EXPECT_TRUE(Eval("fd.cip.name in (nowhere.example, client.example)"));
  EXPECT_FALSE(Eval("fd.sip.name = elsewhere.example"));
  EXPECT_TRUE(Eval("fd.sip.name != elsewhere.example"));
  EXPECT_FALSE(Eval("fd.sip.name != api.example"));
  EXPECT_FALSE(Eval("fd.sip.name = nowhere.example")) << "a name that does not resolve";
  WriteTo(7);
  EXPECT_TRUE(Eval("fd.sip.name = api.example")) << "its IPv6 address";
  EXPECT_FALSE(Eval("fd.cip.name = client.example"));
  EXPECT_TRUE(Eval("fd.cip.name != client.example")) << "no watched name: != holds";
  EXPECT_FALSE(Eval("fd.cip.name exists and fd.cip.name = \"\""));
  WriteTo(6);
  EXPECT_FALSE(Eval("fd.sip.name != api.example")) << "a unix socket has no address";
  sys_.extractor().SetAddressNames(nullptr);
}

}  // namespace
}  // namespace kestrel::engine::fields
