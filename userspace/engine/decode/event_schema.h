// The event schema (driver/modern_bpf/shared/event_schema.h) as data: names,
// parameter types and flag sets of every specific event, for decoding and
// for `kestrel capture --list-events`.
#ifndef KESTREL_ENGINE_DECODE_EVENT_SCHEMA_H_
#define KESTREL_ENGINE_DECODE_EVENT_SCHEMA_H_

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

struct EventInfo {
  uint16_t type;             // enum kestrel_event_type
  std::string_view name;     // e.g. "OPENAT"
  std::string_view syscall;  // e.g. "openat"; empty for events of no syscall
  std::vector<ParamInfo> params;

  // Index of the parameter called `name`, or -1.
  int ParamIndex(std::string_view param) const;
  // Index of the syscall's return value (the KPS_RET parameter), or -1.
  // Read it by position: its name follows Falco's ("res", "fd" ...).
  int return_index = -1;
};

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
