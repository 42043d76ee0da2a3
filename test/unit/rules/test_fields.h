// A small field table for rules tests: a few of Falco's field names
// resolved to ids, and per-event values set by the test. Reads are counted
// so a test can tell which rules an event met.
#ifndef KESTREL_TEST_UNIT_RULES_TEST_FIELDS_H_
#define KESTREL_TEST_UNIT_RULES_TEST_FIELDS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/filter/field_binding.h"

namespace kestrel::test {

class TestFields : public engine::filter::FieldResolver, public engine::filter::FieldReader {
 public:
  TestFields() {
    for (const char* name : {"evt.type", "evt.dir", "proc.name", "proc.pname", "fd.name",
                             "fd.directory", "user.name", "proc.cmdline", "evt.num"}) {
      names_.push_back(name);
    }
  }

  absl::StatusOr<engine::filter::FieldSpec> Resolve(
      const engine::filter::FieldRef& field) const override {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == field.name && !field.index) {
        return engine::filter::FieldSpec{static_cast<uint32_t>(i),
                                         engine::filter::ValueType::kString};
      }
    }
    return absl::NotFoundError(absl::StrCat("field '", field.name, "' does not exist"));
  }

  bool Read(const engine::filter::FieldSpec& field, engine::filter::FieldValue& out) override {
    ++reads;
    auto it = values.find(names_[field.id]);
    if (it == values.end()) return false;
    out.str = it->second;
    return true;
  }

  std::map<std::string, std::string> values;  // this event's fields by name
  size_t reads = 0;

 private:
  std::vector<std::string> names_;
};

}  // namespace kestrel::test

#endif  // KESTREL_TEST_UNIT_RULES_TEST_FIELDS_H_
