#include "event_schema.h"

namespace kestrel::engine {
namespace {

#define KESTREL_PARAM_INFO(name, type, source, flag_set) ParamInfo{#name, type, source, flag_set},
#define KESTREL_EVENT_INFO(name, syscall, params) \
  EventInfo{KESTREL_EVT_##name, #name, #syscall, {params(KESTREL_PARAM_INFO)}},

// Fills what is derived from the parameter list.
std::vector<EventInfo>* WithDerived(std::vector<EventInfo>* events) {
  for (EventInfo& e : *events) DeriveParamIndexes(e);
  return events;
}

const std::vector<EventInfo>& Events() {
  static const auto* events =
      WithDerived(new std::vector<EventInfo>{KESTREL_SYSCALL_EVENTS(KESTREL_EVENT_INFO)});
  return *events;
}

#define KESTREL_OTHER_EVENT_INFO(name, id, params) \
  EventInfo{KESTREL_EVT_##name, #name, "", {params(KESTREL_PARAM_INFO)}},

const std::vector<EventInfo>& Others() {
  static const auto* events =
      WithDerived(new std::vector<EventInfo>{KESTREL_OTHER_EVENTS(KESTREL_OTHER_EVENT_INFO)});
  return *events;
}

#undef KESTREL_OTHER_EVENT_INFO
#undef KESTREL_EVENT_INFO
#undef KESTREL_PARAM_INFO

}  // namespace

std::string_view KnownParamName(KnownParam p) {
  switch (p) {
    case KnownParam::kFd:
      return "fd";
    case KnownParam::kDirfd:
      return "dirfd";
    case KnownParam::kName:
      return "name";
    case KnownParam::kPath:
      return "path";
    case KnownParam::kFlags:
      return "flags";
    case KnownParam::kMode:
      return "mode";
    case KnownParam::kDev:
      return "dev";
    case KnownParam::kIno:
      return "ino";
    case KnownParam::kOpenFacts:
      return "open_facts";
  }
  return {};
}

void DeriveParamIndexes(EventInfo& event) {
  event.return_index = -1;
  for (size_t i = 0; i < event.params.size(); ++i) {
    if (event.params[i].source == KPS_RET) event.return_index = static_cast<int>(i);
  }
  for (size_t k = 0; k < kKnownParamCount; ++k) {
    const int i = event.ParamIndex(KnownParamName(static_cast<KnownParam>(k)));
    // An index past int8_t's range (no event has that many parameters)
    // counts as absent rather than wrapping.
    event.known_index[k] = static_cast<int8_t>(i <= INT8_MAX ? i : -1);
  }
}

int EventInfo::ParamIndex(std::string_view param) const {
  if (param.empty()) return -1;
  // Names are short and mostly differ in length or first letter: checking
  // those inline leaves one full compare, on the likely match (decoders
  // look parameters up by name several times per event).
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string_view name = params[i].name;
    if (name.size() == param.size() && name.front() == param.front() && name == param) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

const std::vector<EventInfo>& AllEvents() { return Events(); }

const std::vector<EventInfo>& OtherEvents() { return Others(); }

const EventInfo* FindEvent(uint16_t type) {
  if (type < KESTREL_EVT_SYSCALL_BASE) {
    for (const EventInfo& e : Others()) {
      if (e.type == type) return &e;
    }
    return nullptr;
  }
  const std::vector<EventInfo>& events = Events();
  const int index = static_cast<int>(type) - KESTREL_EVT_SYSCALL_BASE - 1;
  if (index < 0 || index >= static_cast<int>(events.size())) return nullptr;
  return &events[index];
}

std::string_view ParamTypeName(kestrel_param_type type) {
  switch (type) {
    case KPT_INT64:
      return "int64";
    case KPT_UINT64:
      return "uint64";
    case KPT_INT32:
      return "int32";
    case KPT_UINT32:
      return "uint32";
    case KPT_FD:
      return "fd";
    case KPT_PID:
      return "pid";
    case KPT_UID:
      return "uid";
    case KPT_GID:
      return "gid";
    case KPT_ERRNO:
      return "errno";
    case KPT_FLAGS32:
      return "flags";
    case KPT_MODE:
      return "mode";
    case KPT_PATH:
      return "path";
    case KPT_CHARBUF:
      return "charbuf";
    case KPT_BYTEBUF:
      return "bytebuf";
    case KPT_SOCKADDR:
      return "sockaddr";
    case KPT_SOCKTUPLE:
      return "socktuple";
    case KPT_CHARBUF_ARRAY:
      return "charbuf_array";
    case KPT_FDLIST:
      return "fdlist";
    default:
      return "none";
  }
}

}  // namespace kestrel::engine
