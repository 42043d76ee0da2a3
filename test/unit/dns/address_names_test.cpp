// AddressNames: names resolved on the worker, refreshed, forgotten when no
// rule compares them any more, kept through a failed lookup, and a stop
// that does not wait for a lookup that hangs.
#include "engine/dns/address_names.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kestrel::engine::dns {
namespace {

using std::chrono::milliseconds;

// A DNS stand-in whose answers the test changes while the worker asks.
class FakeDns {
 public:
  void Set(const std::string& name, std::vector<std::string> addresses) {
    std::lock_guard<std::mutex> lock(mu_);
    answers_[name] = std::move(addresses);
  }
  Resolver resolver() {
    return [this](const std::string& name) {
      std::lock_guard<std::mutex> lock(mu_);
      ++asked_[name];
      const auto it = answers_.find(name);
      return it == answers_.end() ? std::vector<std::string>{} : it->second;
    };
  }
  int asked(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    return asked_[name];
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<std::string>> answers_;
  std::map<std::string, int> asked_;
};

std::vector<std::string> NamesOf(const AddressNames& names, const std::string& address) {
  const std::shared_ptr<const NamesByAddress> table = names.Snapshot();
  const auto it = table->find(address);
  return it == table->end() ? std::vector<std::string>{} : it->second;
}

// Polls until `done` or 5 s.
template <typename F>
bool Eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return true;
}

TEST(AddressNamesTest, NamesResolveToTheirAddressesAndShareThem) {
  FakeDns dns;
  dns.Set("api.example", {"10.0.0.1", "fd00::1"});
  dns.Set("alias.example", {"10.0.0.1"});
  AddressNames names({.resolve = dns.resolver()});
  names.Watch({"api.example", "alias.example", "api.example"});
  names.WaitResolved();
  EXPECT_EQ(NamesOf(names, "10.0.0.1"), (std::vector<std::string>{"alias.example", "api.example"}));
  EXPECT_EQ(NamesOf(names, "fd00::1"), std::vector<std::string>{"api.example"});
  EXPECT_TRUE(NamesOf(names, "10.0.0.2").empty());
  EXPECT_EQ(names.counters().names, 2u);
}

TEST(AddressNamesTest, RefreshFollowsANameToItsNewAddress) {
  FakeDns dns;
  dns.Set("api.example", {"10.0.0.1"});
  AddressNames names({.refresh = milliseconds(20), .resolve = dns.resolver()});
  names.Watch({"api.example"});
  names.WaitResolved();
  dns.Set("api.example", {"10.0.0.9"});
  EXPECT_TRUE(Eventually([&] { return !NamesOf(names, "10.0.0.9").empty(); }));
  EXPECT_TRUE(NamesOf(names, "10.0.0.1").empty());
}

TEST(AddressNamesTest, AFailedLookupKeepsTheLastAddresses) {
  FakeDns dns;
  dns.Set("api.example", {"10.0.0.1"});
  AddressNames names({.refresh = milliseconds(20), .resolve = dns.resolver()});
  names.Watch({"api.example"});
  names.WaitResolved();
  dns.Set("api.example", {});
  const int before = dns.asked("api.example");
  ASSERT_TRUE(Eventually([&] { return dns.asked("api.example") > before + 1; }));
  EXPECT_EQ(NamesOf(names, "10.0.0.1"), std::vector<std::string>{"api.example"});
  EXPECT_GT(names.counters().failures, 0u);
}

TEST(AddressNamesTest, NamesNoLongerWatchedAreForgotten) {
  FakeDns dns;
  dns.Set("old.example", {"10.0.0.1"});
  dns.Set("new.example", {"10.0.0.2"});
  AddressNames names({.resolve = dns.resolver()});
  names.Watch({"old.example"});
  names.WaitResolved();
  names.Watch({"new.example"});
  names.WaitResolved();
  EXPECT_TRUE(NamesOf(names, "10.0.0.1").empty());
  EXPECT_EQ(NamesOf(names, "10.0.0.2"), std::vector<std::string>{"new.example"});
  names.Watch({});
  names.WaitResolved();
  EXPECT_TRUE(names.Snapshot()->empty());
}

// A DNS server that never answers must not hold up a shutdown.
TEST(AddressNamesTest, StoppingDoesNotWaitForALookupThatHangs) {
  auto release = std::make_shared<std::atomic<bool>>(false);
  auto entered = std::make_shared<std::atomic<bool>>(false);
  auto names = std::make_unique<AddressNames>(
      AddressNames::Options{.resolve = [release, entered](const std::string&) {
        *entered = true;
        while (!*release) std::this_thread::sleep_for(milliseconds(5));
        return std::vector<std::string>{};
      }});
  names->Watch({"hangs.example"});
  ASSERT_TRUE(Eventually([&] { return entered->load(); }));
  const auto start = std::chrono::steady_clock::now();
  names.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, AddressNames::kStopWait + milliseconds(300));
  *release = true;  // the worker ends on its own, with its state
}

TEST(AddressNamesTest, TheSystemResolverReadsEtcHosts) {
  const std::vector<std::string> addresses = ResolveWithSystem("localhost");
  EXPECT_NE(std::find(addresses.begin(), addresses.end(), "127.0.0.1"), addresses.end());
  EXPECT_TRUE(ResolveWithSystem("name.that.does.not.exist.invalid").empty());
}

}  // namespace
}  // namespace kestrel::engine::dns
