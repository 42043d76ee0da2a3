// The domain names rules compare fd.sip.name, fd.cip.name, fd.lip.name and
// fd.rip.name with, resolved to addresses as Falco does: on a thread of
// their own, never on the event path, and again every refresh period, so
// `fd.sip.name = "kubernetes.default.svc.cluster.local"` matches a
// connection to any address the name resolves to now. A name that stops
// resolving keeps its last addresses until it resolves again. Events come
// before a name's first resolution finds no name for its addresses.
#ifndef KESTREL_ENGINE_DNS_ADDRESS_NAMES_H_
#define KESTREL_ENGINE_DNS_ADDRESS_NAMES_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace kestrel::engine::dns {

// By address (as text: "10.0.0.1", "::1"), the watched names resolving to
// it, sorted.
using NamesByAddress = absl::flat_hash_map<std::string, std::vector<std::string>>;

// A name's addresses as text; empty when it does not resolve.
using Resolver = std::function<std::vector<std::string>(const std::string& name)>;

// The system's resolver (getaddrinfo: /etc/hosts, then DNS), IPv4 and IPv6.
std::vector<std::string> ResolveWithSystem(const std::string& name);

class AddressNames {
 public:
  struct Options {
    std::chrono::milliseconds refresh{std::chrono::seconds(10)};
    // Called on the worker thread only.
    Resolver resolve = ResolveWithSystem;
  };
  struct Counters {
    uint64_t resolutions = 0;  // names resolved, refreshes included
    uint64_t failures = 0;     // resolutions that found no address
    size_t names = 0;          // watched now
  };

  explicit AddressNames(Options options);
  AddressNames() : AddressNames(Options{}) {}
  // Returns within kStopWait even when a lookup hangs (a DNS server that
  // does not answer): the worker then ends once the lookup does.
  ~AddressNames();
  AddressNames(const AddressNames&) = delete;
  AddressNames& operator=(const AddressNames&) = delete;

  static constexpr std::chrono::milliseconds kStopWait{200};

  // The names to resolve from now on (the rules loaded compare them); a new
  // name is resolved at once, a name no longer given is forgotten.
  void Watch(std::vector<std::string> names);

  // The current resolutions; a snapshot the worker never changes. Cheap: a
  // reference count taken under a lock.
  std::shared_ptr<const NamesByAddress> Snapshot() const;

  Counters counters() const;

  // Blocks until every watched name was resolved once (tests, and a
  // replay, whose events must not outrun the first answers).
  void WaitResolved() const;

 private:
  // Shared with the worker, which may outlive this object by one lookup.
  struct State;
  static void Loop(const std::shared_ptr<State>& state);
  // Resolves every watched name (unlocked) and publishes the table.
  static void ResolveAll(State& state);

  std::shared_ptr<State> state_;
};

}  // namespace kestrel::engine::dns

#endif  // KESTREL_ENGINE_DNS_ADDRESS_NAMES_H_
