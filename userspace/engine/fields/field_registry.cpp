#include "field_registry.h"

#include <algorithm>

#include "absent_fields.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/decode/event_schema.h"
#include "engine/filter/scanner.h"
#include "param_text.h"

namespace kestrel::engine::fields {
namespace {

using filter::FieldRef;
using filter::FieldSpec;
using filter::Sv;
using filter::ValueType;

absl::Status FieldError(const FieldRef& field, std::string_view why) {
  return absl::NotFoundError(absl::StrCat("field '", field.name,
                                          field.index ? absl::StrCat("[", *field.index, "]") : "",
                                          "' ", Sv(why)));
}

bool IsIntegerParam(kestrel_param_type type) {
  return type != KPT_PATH && type != KPT_CHARBUF && type != KPT_BYTEBUF && type != KPT_SOCKADDR &&
         type != KPT_SOCKTUPLE && type != KPT_CHARBUF_ARRAY;
}

}  // namespace

FieldRegistry::FieldRegistry() {
  for (const EventInfo& e : AllEvents()) max_event_type_ = std::max(max_event_type_, e.type);
}

absl::StatusOr<uint32_t> FieldRegistry::ParamSlotFor(const std::string& name) const {
  if (auto it = param_slot_index_.find(name); it != param_slot_index_.end()) return it->second;
  ParamSlot slot;
  slot.name = name;
  slot.index_by_type.assign(static_cast<size_t>(max_event_type_) + 1, -1);
  bool found = false;
  for (const EventInfo& e : AllEvents()) {
    const int i = e.ParamIndex(name);
    if (i < 0) continue;
    found = true;
    slot.index_by_type[e.type] = static_cast<int8_t>(i);
    slot.all_integers = slot.all_integers && IsIntegerParam(e.params[i].type);
  }
  if (!found) return absl::NotFoundError("no event has such a parameter");
  const std::optional<uint32_t> id = param_slots_.Append(std::move(slot));
  if (!id) return absl::ResourceExhaustedError("too many parameter names");
  param_slot_index_.emplace(name, *id);
  return *id;
}

absl::StatusOr<uint32_t> FieldRegistry::PositionSlotFor(uint32_t n) const {
  const std::string key = absl::StrCat("[", n, "]");
  if (auto it = param_slot_index_.find(key); it != param_slot_index_.end()) return it->second;
  ParamSlot slot;
  slot.name = key;
  slot.index_by_type.assign(static_cast<size_t>(max_event_type_) + 1, -1);
  for (const EventInfo& e : AllEvents()) {
    slot.index_by_type[e.type] = static_cast<int8_t>(ParamAtPosition(e, n));
  }
  const std::optional<uint32_t> id = param_slots_.Append(std::move(slot));
  if (!id) return absl::ResourceExhaustedError("too many parameter names");
  param_slot_index_.emplace(key, *id);
  return *id;
}

absl::StatusOr<uint32_t> FieldRegistry::EnvSlotFor(const std::string& name) const {
  if (auto it = env_slot_index_.find(name); it != env_slot_index_.end()) return it->second;
  const std::optional<uint32_t> id = env_names_.Append(name);
  if (!id) return absl::ResourceExhaustedError("too many variable names");
  env_slot_index_.emplace(name, *id);
  return *id;
}

std::string FieldRegistry::WhyAbsent(std::string_view name) const {
  return std::string(fields::WhyAbsent(name));
}

std::string FieldRegistry::Unfilled(const FieldRef& field) const {
  const FieldDef* def = FindField(field.name);
  if (def == nullptr) return std::string();
  const FieldSource source = SourceOf(def->kind);
  if (filled_ & (1u << static_cast<unsigned>(source))) return std::string();
  return std::string(UnfilledReason(source));
}

bool FieldRegistry::ArrivesLate(const FieldRef& field) const {
  const FieldDef* def = FindField(field.name);
  return def != nullptr && SourceOf(def->kind) == FieldSource::kContainerRuntime;
}

bool FieldRegistry::NamesAddresses(const FieldRef& field) const {
  const FieldDef* def = FindField(field.name);
  if (def == nullptr) return false;
  switch (def->kind) {
    case FieldKind::kFdSipName:
    case FieldKind::kFdCipName:
    case FieldKind::kFdLipName:
    case FieldKind::kFdRipName:
      return true;
    default:
      return false;
  }
}

absl::StatusOr<FieldSpec> FieldRegistry::Resolve(const FieldRef& field) const {
  const std::lock_guard<std::mutex> lock(resolve_mutex_);
  // evt.arg.NAME and evt.rawarg.NAME: the catalog's name, then a parameter.
  for (const std::string_view prefix : {"evt.arg.", "evt.rawarg."}) {
    if (!field.name.starts_with(prefix) || field.index) continue;
    const std::string param = field.name.substr(prefix.size());
    absl::StatusOr<uint32_t> slot = ParamSlotFor(param);
    if (!slot.ok())
      return FieldError(field, "does not exist: no event has a parameter '" + param + "'");
    const bool raw = prefix == "evt.rawarg.";
    const ValueType type =
        raw && param_slots_[*slot].all_integers ? ValueType::kInt : ValueType::kString;
    return FieldSpec{FieldId::Pack(raw ? FieldKind::kEvtRawarg : FieldKind::kEvtArg, *slot), type};
  }

  // thread.cgroup.SUBSYS: the controller is part of the name, letters and
  // '_' as libsinsp reads it.
  if (constexpr std::string_view kCgroup = "thread.cgroup."; field.name.starts_with(kCgroup)) {
    const std::string subsys = field.name.substr(kCgroup.size());
    if (field.index || subsys.empty() || !std::all_of(subsys.begin(), subsys.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        })) {
      return FieldError(field, "needs a controller's name: thread.cgroup.SUBSYS (letters, '_')");
    }
    absl::StatusOr<uint32_t> slot = EnvSlotFor(subsys);
    if (!slot.ok()) return FieldError(field, std::string(slot.status().message()));
    return FieldSpec{FieldId::Pack(FieldKind::kThreadCgroup, *slot), ValueType::kString};
  }

  const FieldDef* def = FindField(field.name);
  if (def == nullptr) {
    if (const std::string_view why = fields::WhyAbsent(field.name); !why.empty()) {
      return FieldError(field, absl::StrCat("is Falco's, left out: ", Sv(why)));
    }
    return FieldError(field, "does not exist (kestrel fields lists them all)");
  }
  uint32_t arg = FieldId::kNoArg;
  ValueType type = def->type;
  switch (def->arg) {
    case FieldArg::kNone:
      if (field.index) return FieldError(field, "takes no argument");
      break;
    case FieldArg::kParamName:
      return FieldError(field, "needs a parameter name (evt.rawarg.NAME)");
    case FieldArg::kSubsys:
      return FieldError(field, "needs a controller's name: thread.cgroup.SUBSYS");
    case FieldArg::kEnvName:
      if (field.index) {
        absl::StatusOr<uint32_t> slot = EnvSlotFor(*field.index);
        if (!slot.ok()) return FieldError(field, std::string(slot.status().message()));
        arg = *slot;
      }
      break;
    case FieldArg::kIndexOrVar: {
      // As libsinsp reads it: digits are a depth, other text a variable.
      if (!field.index) {
        return FieldSpec{FieldId::Pack(def->kind, arg), type, filter::Multiplicity::kAnyValue};
      }
      const std::string& text = *field.index;
      if (!text.empty() &&
          std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        uint32_t n = 0;
        if (!absl::SimpleAtoi(Sv(text), &n) || n > kMaxAncestor) {
          return FieldError(field, absl::StrCat("takes an index up to ", kMaxAncestor));
        }
        arg = n;
        break;
      }
      if (text.empty()) return FieldError(field, "needs a depth or a variable's name in [ ]");
      absl::StatusOr<uint32_t> slot = EnvSlotFor(text);
      if (!slot.ok()) return FieldError(field, std::string(slot.status().message()));
      if (*slot >= kByEnvName - 1) return FieldError(field, "too many variable names");
      arg = *slot | kByEnvName;
      break;
    }
    case FieldArg::kPath:
    case FieldArg::kKey: {
      if (!field.index || field.index->empty()) {
        return FieldError(
            field, def->arg == FieldArg::kPath ? "needs a path in [ ]" : "needs a key in [ ]");
      }
      absl::StatusOr<uint32_t> slot = EnvSlotFor(*field.index);
      if (!slot.ok()) return FieldError(field, std::string(slot.status().message()));
      arg = *slot;
      break;
    }
    case FieldArg::kIndex:
    case FieldArg::kOptionalIndex:
    case FieldArg::kParam: {
      if (!field.index) {
        if (def->arg == FieldArg::kOptionalIndex) {
          // A list field (fd.types) is one value; the others without an
          // index are every ancestor's.
          return FieldSpec{FieldId::Pack(def->kind, arg), type,
                           type == ValueType::kStringList ? filter::Multiplicity::kOne
                                                          : filter::Multiplicity::kAnyValue};
        }
        return FieldError(field, def->arg == FieldArg::kParam
                                     ? "needs a parameter: evt.arg.NAME or evt.arg[N]"
                                     : "needs an index [N]");
      }
      uint32_t n = 0;
      if (!absl::SimpleAtoi(Sv(*field.index), &n)) {
        return FieldError(field, "needs a number of 0 or more in [ ]");
      }
      // fd.types[N] names a descriptor, any that fits the id's argument.
      const uint32_t limit = def->arg == FieldArg::kParam       ? 255
                             : def->kind == FieldKind::kFdTypes ? FieldId::kNoArg - 1
                                                                : kMaxAncestor;
      if (n > limit) return FieldError(field, absl::StrCat("takes an index up to ", limit));
      if (def->arg != FieldArg::kParam) {
        arg = n;
        break;
      }
      absl::StatusOr<uint32_t> slot = PositionSlotFor(n);
      if (!slot.ok()) return FieldError(field, std::string(slot.status().message()));
      arg = *slot;
      break;
    }
  }
  return FieldSpec{FieldId::Pack(def->kind, arg), type, def->multiplicity};
}

}  // namespace kestrel::engine::fields
