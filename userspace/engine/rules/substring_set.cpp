#include "engine/rules/substring_set.h"

#include <algorithm>
#include <deque>

namespace kestrel::engine::rules {

uint32_t SubstringSet::Child(const State& s, uint8_t byte) {
  const auto it = std::lower_bound(s.next.begin(), s.next.end(), std::make_pair(byte, uint32_t{0}));
  return it != s.next.end() && it->first == byte ? it->second : kNone;
}

uint32_t SubstringSet::Add(std::string_view pattern) {
  root_next_.clear();
  uint32_t state = 0;
  for (const char c : pattern) {
    const uint8_t byte = static_cast<uint8_t>(c);
    uint32_t next = Child(states_[state], byte);
    if (next == kNone) {
      next = static_cast<uint32_t>(states_.size());
      auto& edges = states_[state].next;
      edges.insert(std::lower_bound(edges.begin(), edges.end(), std::make_pair(byte, uint32_t{0})),
                   {byte, next});
      states_.emplace_back();
    }
    state = next;
  }
  if (states_[state].output == kNone) {
    states_[state].output = static_cast<uint32_t>(n_patterns_++);
  }
  return states_[state].output;
}

uint32_t SubstringSet::Step(uint32_t state, uint8_t byte) const {
  for (;;) {
    if (state == 0) return root_next_[byte];
    const uint32_t next = Child(states_[state], byte);
    if (next != kNone) return next;
    state = states_[state].fail;
  }
}

void SubstringSet::Build() {
  root_next_.assign(256, 0);
  for (const auto& [byte, child] : states_[0].next) root_next_[byte] = child;
  // Breadth first: a state's fail link is to a shorter one, already done.
  std::deque<uint32_t> queue;
  for (const auto& [byte, child] : states_[0].next) {
    states_[child].fail = 0;
    states_[child].dict = kNone;
    queue.push_back(child);
  }
  while (!queue.empty()) {
    const uint32_t s = queue.front();
    queue.pop_front();
    for (const auto& [byte, child] : states_[s].next) {
      const uint32_t fail = Step(states_[s].fail, byte);
      states_[child].fail = fail;
      states_[child].dict = states_[fail].output != kNone ? fail : states_[fail].dict;
      queue.push_back(child);
    }
  }
}

}  // namespace kestrel::engine::rules
