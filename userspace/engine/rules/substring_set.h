// A set of byte strings found inside a text in one pass (Aho-Corasick):
// what lets many rules' `contains` predicates on one field cost one scan of
// the field's value instead of one search per rule.
#ifndef KESTREL_ENGINE_RULES_SUBSTRING_SET_H_
#define KESTREL_ENGINE_RULES_SUBSTRING_SET_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace kestrel::engine::rules {

class SubstringSet {
 public:
  // Adds `pattern` (not empty) and returns its id, 0, 1, 2 ... in order of
  // addition; the same pattern twice gets one id.
  uint32_t Add(std::string_view pattern);

  // Links the patterns for matching: call once, after the last Add and
  // before the first Find.
  void Build();

  // Calls `found(id)` once for each pattern that occurs in `text`, in no
  // particular order. `seen` is scratch space the caller keeps between
  // calls (one byte per pattern).
  template <typename Fn>
  void Find(std::string_view text, std::vector<uint8_t>& seen, Fn&& found) const;

  size_t size() const { return n_patterns_; }

 private:
  struct State {
    std::vector<std::pair<uint8_t, uint32_t>> next;  // byte -> state, sorted
    uint32_t fail = 0;
    uint32_t output = kNone;  // the pattern ending here, if any
    uint32_t dict = kNone;    // nearest state on the fail chain with an output
  };
  static constexpr uint32_t kNone = UINT32_MAX;

  uint32_t Step(uint32_t state, uint8_t byte) const;
  static uint32_t Child(const State& s, uint8_t byte);

  std::vector<State> states_ = std::vector<State>(1);
  // The root's moves for every byte: most bytes of a text leave it there.
  std::vector<uint32_t> root_next_;
  size_t n_patterns_ = 0;
};

template <typename Fn>
void SubstringSet::Find(std::string_view text, std::vector<uint8_t>& seen, Fn&& found) const {
  if (n_patterns_ == 0 || root_next_.empty()) return;
  seen.assign(n_patterns_, 0);
  uint32_t state = 0;
  for (const char c : text) {
    // Most bytes of a text leave the root where it is: that move is a table
    // read, inline, and the root has no output to report.
    const auto byte = static_cast<uint8_t>(c);
    state = state == 0 ? root_next_[byte] : Step(state, byte);
    if (state == 0) continue;
    for (uint32_t s = states_[state].output != kNone ? state : states_[state].dict; s != kNone;
         s = states_[s].dict) {
      const uint32_t id = states_[s].output;
      if (!seen[id]) {
        seen[id] = 1;
        found(id);
      }
    }
  }
}

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_SUBSTRING_SET_H_
