// The event schema (driver/modern_bpf/shared/event_schema.h) as data: names,
// parameter types and flag sets of every specific event, for decoding and
// for `kestrel capture --list-events`.
#ifndef KESTREL_ENGINE_DECODE_EVENT_SCHEMA_H_
#define KESTREL_ENGINE_DECODE_EVENT_SCHEMA_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "shared/event_types.h"

namespace kestrel::engine {

struct ParamInfo {
  std::string_view name;
  kestrel_param_type type;
  kestrel_param_source source;
  kestrel_flag_set flag_set;
};

// Parameter names the state and the fields read on most events. Their
// positions are found once per event type (EventInfo::known_index), so
// reading them costs no name compare per event.
enum class KnownParam : uint8_t {
  kFd,
  kDirfd,
  kName,
  kPath,
  kFlags,
  kMode,
  kDev,
  kIno,
  kOpenFacts,
};
inline constexpr size_t kKnownParamCount = static_cast<size_t>(KnownParam::kOpenFacts) + 1;

// known_index before DeriveParamIndexes: every name absent.
inline constexpr std::array<int8_t, kKnownParamCount> kNoKnownParams = [] {
  std::array<int8_t, kKnownParamCount> none{};
  for (int8_t& i : none) i = -1;
  return none;
}();

// The parameter name `p` stands for ("fd", "dirfd" ...).
std::string_view KnownParamName(KnownParam p);

struct EventInfo {
  uint16_t type;             // enum kestrel_event_type
  std::string_view name;     // e.g. "OPENAT"
  std::string_view syscall;  // e.g. "openat"; empty for events of no syscall
  std::vector<ParamInfo> params;

  // Index of the parameter called `name`, or -1.
  int ParamIndex(std::string_view param) const;
  // The same for a known name, without a compare.
  int ParamIndex(KnownParam param) const { return known_index[static_cast<size_t>(param)]; }
  // Index of the syscall's return value (the KPS_RET parameter), or -1.
  // Read it by position: its name follows Falco's ("res", "fd" ...).
  int return_index = -1;
  // By KnownParam: the index of the parameter of that name, or -1.
  std::array<int8_t, kKnownParamCount> known_index = kNoKnownParams;
};

// Fills what `event` derives from its parameter list: return_index and
// known_index. Every schema table calls it on its events.
void DeriveParamIndexes(EventInfo& event);

// Every specific event, by increasing type.
const std::vector<EventInfo>& AllEvents();

// Every event not tied to a syscall (syscall is empty), by increasing type.
const std::vector<EventInfo>& OtherEvents();

// The event with type `type`, or nullptr when it has no schema entry.
const EventInfo* FindEvent(uint16_t type);

// The name of a parameter type ("fd", "path", ...).
std::string_view ParamTypeName(kestrel_param_type type);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_EVENT_SCHEMA_H_
