// An event schema held as a table: this build's compiled-in schema, or one
// read from a capture file written by another Kestrel. The decoder looks
// events up here, so records of an older (or newer) schema decode through
// the schema they were written with.
#ifndef KESTREL_ENGINE_DECODE_SCHEMA_TABLE_H_
#define KESTREL_ENGINE_DECODE_SCHEMA_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "event_schema.h"

namespace kestrel::engine {

class SchemaTable {
 public:
  // This build's schema (shared/event_schema.h), alive for the program.
  static const SchemaTable& Compiled();

  // A table of schema `version` owning copies of `events`' strings, so
  // `events` may point into a buffer that goes away. Return indexes are
  // derived from the sources.
  static std::unique_ptr<SchemaTable> Copy(const std::vector<EventInfo>& events, uint32_t version);

  SchemaTable(const SchemaTable&) = delete;
  SchemaTable& operator=(const SchemaTable&) = delete;

  // The event with type `type`, or nullptr.
  const EventInfo* Find(uint16_t type) const {
    if (type >= index_by_type_.size()) return nullptr;
    const int32_t i = index_by_type_[type];
    return i < 0 ? nullptr : &events_[static_cast<size_t>(i)];
  }
  // Every event, by increasing type.
  const std::vector<EventInfo>& events() const { return events_; }
  // The schema version its records carry in their header.
  uint32_t version() const { return version_; }

 private:
  SchemaTable() = default;
  void Index();

  std::vector<std::unique_ptr<std::string>> strings_;  // what copied views point at
  std::vector<EventInfo> events_;
  std::vector<int32_t> index_by_type_;
  uint32_t version_ = 0;
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_SCHEMA_TABLE_H_
