#include "address_names.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

namespace kestrel::engine::dns {

std::vector<std::string> ResolveWithSystem(const std::string& name) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;  // one entry per address, not per protocol
  addrinfo* found = nullptr;
  if (getaddrinfo(name.c_str(), nullptr, &hints, &found) != 0) return {};
  std::vector<std::string> addresses;
  char text[INET6_ADDRSTRLEN];
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const void* raw = nullptr;
    if (a->ai_family == AF_INET) {
      raw = &reinterpret_cast<const sockaddr_in*>(a->ai_addr)->sin_addr;
    } else if (a->ai_family == AF_INET6) {
      raw = &reinterpret_cast<const sockaddr_in6*>(a->ai_addr)->sin6_addr;
    }
    if (raw == nullptr || inet_ntop(a->ai_family, raw, text, sizeof text) == nullptr) continue;
    if (std::find(addresses.begin(), addresses.end(), text) == addresses.end()) {
      addresses.emplace_back(text);
    }
  }
  freeaddrinfo(found);
  return addresses;
}

struct AddressNames::State {
  explicit State(Options o) : options(std::move(o)) {}
  const Options options;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> names;  // under mu
  std::shared_ptr<const NamesByAddress> table = std::make_shared<const NamesByAddress>();  // mu
  uint64_t generation = 0;           // Watch calls, under mu
  uint64_t resolved_generation = 0;  // under mu
  Counters counters;                 // under mu
  bool stop = false;                 // under mu
  bool running = true;               // the worker has not ended; under mu
  // name -> its last addresses; the worker's alone.
  absl::flat_hash_map<std::string, std::vector<std::string>> last;
};

AddressNames::AddressNames(Options options) : state_(std::make_shared<State>(std::move(options))) {
  std::thread([state = state_] { Loop(state); }).detach();
}

AddressNames::~AddressNames() {
  std::unique_lock<std::mutex> lock(state_->mu);
  state_->stop = true;
  state_->cv.notify_all();
  state_->cv.wait_for(lock, kStopWait, [this] { return !state_->running; });
}

void AddressNames::Watch(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (names == state_->names) return;
    state_->names = std::move(names);
    ++state_->generation;
  }
  state_->cv.notify_all();
}

std::shared_ptr<const NamesByAddress> AddressNames::Snapshot() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->table;
}

AddressNames::Counters AddressNames::counters() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->counters;
}

void AddressNames::WaitResolved() const {
  std::unique_lock<std::mutex> lock(state_->mu);
  state_->cv.wait(
      lock, [this] { return state_->stop || state_->resolved_generation == state_->generation; });
}

void AddressNames::Loop(const std::shared_ptr<State>& state) {
  std::unique_lock<std::mutex> lock(state->mu);
  const auto changed = [&] {
    return state->stop || state->resolved_generation != state->generation;
  };
  while (!state->stop) {
    if (state->names.empty() && !changed()) {
      state->cv.wait(lock, changed);
      continue;
    }
    lock.unlock();
    ResolveAll(*state);
    lock.lock();
    // A refresh, unless the names change first.
    state->cv.wait_for(lock, state->options.refresh, changed);
  }
  state->running = false;
  state->cv.notify_all();
}

void AddressNames::ResolveAll(State& state) {
  std::vector<std::string> names;
  uint64_t generation = 0;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    names = state.names;
    generation = state.generation;
  }
  uint64_t failures = 0;
  absl::flat_hash_map<std::string, std::vector<std::string>> resolved;
  for (const std::string& name : names) {
    {
      std::lock_guard<std::mutex> lock(state.mu);
      if (state.stop) return;
    }
    std::vector<std::string> addresses = state.options.resolve(name);
    if (addresses.empty()) {
      ++failures;
      // Kept from the last answer: a resolver that fails for a moment does
      // not blind the rules.
      if (const auto it = state.last.find(name); it != state.last.end()) addresses = it->second;
    }
    resolved[name] = std::move(addresses);
  }
  auto table = std::make_shared<NamesByAddress>();
  for (const std::string& name : names) {
    for (const std::string& address : resolved[name]) (*table)[address].push_back(name);
  }
  state.last = std::move(resolved);
  {
    std::lock_guard<std::mutex> lock(state.mu);
    state.table = std::move(table);
    state.counters.resolutions += names.size();
    state.counters.failures += failures;
    state.counters.names = names.size();
    state.resolved_generation = generation;
  }
  state.cv.notify_all();
}

}  // namespace kestrel::engine::dns
