// A rule's priority, as Falco's rules files spell it. Lower values are more
// severe, so "at least as severe as the threshold" is `p <= threshold`.
#ifndef KESTREL_ENGINE_RULES_PRIORITY_H_
#define KESTREL_ENGINE_RULES_PRIORITY_H_

#include <optional>
#include <string_view>

namespace kestrel::engine::rules {

enum class Priority {
  kEmergency = 0,
  kAlert,
  kCritical,
  kError,
  kWarning,
  kNotice,
  kInformational,
  kDebug,
};

// The name Falco prints in alerts: "Emergency" ... "Debug".
std::string_view PriorityName(Priority p);

// Parses a priority as rules files and `-o priority=` write it, in any case:
// "WARNING", "warning", and Falco's aliases "INFO" and "informational".
std::optional<Priority> ParsePriority(std::string_view text);

// Whether an alert of priority `p` passes a threshold (`priority: notice`
// keeps Notice and everything more severe).
inline bool AtLeast(Priority p, Priority threshold) { return p <= threshold; }

}  // namespace kestrel::engine::rules

#endif  // KESTREL_ENGINE_RULES_PRIORITY_H_
