// Builds specific-event records from the schema, naming only the parameters
// a test cares about: the others get zeros (fixed-size types) or nothing.
#ifndef KESTREL_TEST_UNIT_EVENT_RECORD_BUILDER_H_
#define KESTREL_TEST_UNIT_EVENT_RECORD_BUILDER_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/decode/event_schema.h"
#include "shared/event_types.h"

namespace kestrel::testing {

using ParamBytes = std::vector<uint8_t>;

template <typename T>
ParamBytes Fixed(T value) {
  ParamBytes b(sizeof(T));
  std::memcpy(b.data(), &value, sizeof(T));
  return b;
}

// A NUL-terminated string, as the probe writes strings.
inline ParamBytes Str(std::string_view s) {
  ParamBytes b(s.begin(), s.end());
  b.push_back(0);
  return b;
}

// NUL-separated strings (argv).
inline ParamBytes StrList(const std::vector<std::string>& items) {
  ParamBytes b;
  for (const std::string& s : items) {
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
  }
  return b;
}

struct EventHeader {
  uint32_t tid = 42;
  uint32_t tgid = 41;
  uint64_t ts_ns = 1'000'000'000;
  uint16_t cpu = 0;
};

// A record of event `type`: integer parameters from `ints` (written with
// the size their type has), the others' bytes from `bytes`.
inline std::vector<uint8_t> EventRecord(uint16_t type, const EventHeader& at,
                                        const std::map<std::string, int64_t>& ints,
                                        const std::map<std::string, ParamBytes>& bytes_of = {}) {
  const engine::EventInfo* info = engine::FindEvent(type);
  // A name the event does not have is a test written for another schema.
  for (const auto& [name, value] : ints) {
    if (info->ParamIndex(name) < 0) ADD_FAILURE() << info->name << " has no parameter " << name;
  }
  for (const auto& [name, value] : bytes_of) {
    if (info->ParamIndex(name) < 0) ADD_FAILURE() << info->name << " has no parameter " << name;
  }
  std::vector<ParamBytes> values;
  for (const engine::ParamInfo& p : info->params) {
    const std::string name(p.name);
    const size_t size = kestrel_param_fixed_size(p.type);
    ParamBytes v(size, 0);
    if (auto it = ints.find(name); it != ints.end()) {
      std::memcpy(v.data(), &it->second, size);  // little-endian: the low bytes
    } else if (auto b = bytes_of.find(name); b != bytes_of.end()) {
      v = b->second;
    }
    values.push_back(std::move(v));
  }
  kestrel_record_header h{};
  h.ts_ns = at.ts_ns;
  h.tid = at.tid;
  h.tgid = at.tgid;
  h.cpu = at.cpu;
  h.type = type;
  h.version = KESTREL_SCHEMA_VERSION;
  h.nparams = static_cast<uint8_t>(values.size());
  std::vector<uint8_t> bytes(sizeof(h));
  for (const ParamBytes& v : values) {
    const auto len = static_cast<uint16_t>(v.size());
    bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(&len),
                 reinterpret_cast<const uint8_t*>(&len) + 2);
  }
  for (const ParamBytes& v : values) bytes.insert(bytes.end(), v.begin(), v.end());
  h.len = static_cast<uint32_t>(bytes.size());
  std::memcpy(bytes.data(), &h, sizeof(h));
  return bytes;
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_UNIT_EVENT_RECORD_BUILDER_H_
