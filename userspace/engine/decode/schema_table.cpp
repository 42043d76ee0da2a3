#include "schema_table.h"

#include <algorithm>

namespace kestrel::engine {

const SchemaTable& SchemaTable::Compiled() {
  static const SchemaTable* table = [] {
    auto* t = new SchemaTable();
    t->events_ = OtherEvents();
    t->events_.insert(t->events_.end(), AllEvents().begin(), AllEvents().end());
    t->version_ = KESTREL_SCHEMA_VERSION;
    t->Index();
    return t;
  }();
  return *table;
}

std::unique_ptr<SchemaTable> SchemaTable::Copy(const std::vector<EventInfo>& events,
                                               uint32_t version) {
  std::unique_ptr<SchemaTable> t(new SchemaTable());
  t->version_ = version;
  const auto own = [&](std::string_view s) {
    t->strings_.push_back(std::make_unique<std::string>(s));
    return std::string_view(*t->strings_.back());
  };
  for (const EventInfo& e : events) {
    EventInfo copy{e.type, own(e.name), own(e.syscall), {}};
    copy.params.reserve(e.params.size());
    for (const ParamInfo& p : e.params) {
      copy.params.push_back(ParamInfo{own(p.name), p.type, p.source, p.flag_set});
    }
    t->events_.push_back(std::move(copy));
  }
  t->Index();
  return t;
}

void SchemaTable::Index() {
  std::stable_sort(events_.begin(), events_.end(),
                   [](const EventInfo& a, const EventInfo& b) { return a.type < b.type; });
  uint16_t max_type = 0;
  for (EventInfo& e : events_) {
    max_type = std::max(max_type, e.type);
    DeriveParamIndexes(e);
  }
  index_by_type_.assign(events_.empty() ? 0 : size_t{max_type} + 1, -1);
  for (size_t i = 0; i < events_.size(); ++i) {
    int32_t& slot = index_by_type_[events_[i].type];
    if (slot < 0) slot = static_cast<int32_t>(i);  // the first of a repeated type wins
  }
}

}  // namespace kestrel::engine
