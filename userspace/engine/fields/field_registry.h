// Resolves field names as conditions spell them into FieldSpecs, once, at
// compile time: the spec's id packs the catalog's FieldKind with its
// argument (an ancestor's depth, a parameter's slot), so reading a field per
// event is a switch, never a string compare.
#ifndef KESTREL_ENGINE_FIELDS_FIELD_REGISTRY_H_
#define KESTREL_ENGINE_FIELDS_FIELD_REGISTRY_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "append_only_slots.h"
#include "engine/filter/field_binding.h"
#include "field_catalog.h"

namespace kestrel::engine::fields {

// A spec id, unpacked.
struct FieldId {
  FieldKind kind;
  uint32_t arg;  // see the kArg* constants and FieldRegistry

  static constexpr uint32_t kNoArg = 0xFFFF;

  static uint32_t Pack(FieldKind kind, uint32_t arg) {
    return static_cast<uint32_t>(kind) | (arg << 16);
  }
  static FieldId Unpack(uint32_t id) { return {static_cast<FieldKind>(id & 0xFFFF), id >> 16}; }
};

class FieldRegistry : public filter::FieldResolver {
 public:
  // The deepest ancestor proc.aname[N] and friends may name.
  static constexpr uint32_t kMaxAncestor = 64;
  // proc.aenv's argument is a depth or a variable's name: a name's slot
  // is marked with this bit (depths stay below kMaxAncestor).
  static constexpr uint32_t kByEnvName = 0x8000;

  FieldRegistry();

  // Unknown names, arguments a field does not take and parameter names no
  // event has are errors naming the field. Safe to call from one thread
  // while others read fields of rules resolved before.
  absl::StatusOr<filter::FieldSpec> Resolve(const filter::FieldRef& field) const override;
  std::string Unfilled(const filter::FieldRef& field) const override;
  std::string WhyAbsent(std::string_view name) const override;
  bool ArrivesLate(const filter::FieldRef& field) const override;
  bool NamesAddresses(const filter::FieldRef& field) const override;

  // Slot `slot` of evt.arg.NAME / evt.rawarg.NAME / evt.arg[N]: the index
  // of that parameter in events of type `type`, or -1 when they have none.
  int ParamIndex(uint32_t slot, uint16_t type) const {
    const std::vector<int8_t>& by_type = param_slots_[slot].index_by_type;
    return type < by_type.size() ? by_type[type] : -1;
  }
  // The text in [ ] of proc.env[VAR], container.label[KEY] or
  // container.mount.dest[PATH], by its slot.
  const std::string& EnvName(uint32_t slot) const { return env_names_[slot]; }

  // Fields from `source` are filled on this machine from now on (a
  // container runtime answers): rules reading them are no longer named.
  // Called before any rules load.
  void SetFilled(FieldSource source) { filled_ |= 1u << static_cast<unsigned>(source); }

 private:
  struct ParamSlot {
    std::string name;                   // "[N]" for evt.arg[N]
    std::vector<int8_t> index_by_type;  // by event type; -1 = no such parameter
    bool all_integers = true;           // evt.rawarg reads a number
  };

  absl::StatusOr<uint32_t> ParamSlotFor(const std::string& name) const;
  absl::StatusOr<uint32_t> PositionSlotFor(uint32_t n) const;
  absl::StatusOr<uint32_t> EnvSlotFor(const std::string& name) const;

  // Slots are added as conditions name them (Resolve is const to its
  // callers), by a reload compiling rules on its own thread while the
  // consumer reads the slots of the rules in force: so slots never move,
  // and the name indexes, which only Resolve touches, are under a lock.
  mutable std::mutex resolve_mutex_;
  mutable AppendOnlySlots<ParamSlot, FieldId::kNoArg> param_slots_;
  mutable absl::flat_hash_map<std::string, uint32_t> param_slot_index_;
  mutable AppendOnlySlots<std::string, FieldId::kNoArg> env_names_;
  mutable absl::flat_hash_map<std::string, uint32_t> env_slot_index_;
  uint16_t max_event_type_ = 0;
  uint32_t filled_ = 1u << static_cast<unsigned>(FieldSource::kKernel);
};

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_FIELD_REGISTRY_H_
