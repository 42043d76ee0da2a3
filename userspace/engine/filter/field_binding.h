// What the filter compiler needs from the fields layer, and nothing more:
// resolving a field as a condition names it (once, at compile time) and
// reading its value for the current event (at most once per event).
#ifndef KESTREL_ENGINE_FILTER_FIELD_BINDING_H_
#define KESTREL_ENGINE_FILTER_FIELD_BINDING_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/filter/ast.h"

namespace kestrel::engine::filter {

enum class ValueType {
  kString,      // also paths and buffers: compared as bytes
  kInt,         // signed: evt.res, evt.rawres
  kUint,        // ids, ports, counts, flags
  kBool,        // compared with true/false
  kStringList,  // a list as one value: `in` (every item), `intersects` (some item)
  kIpAddr,      // an address as text ("10.0.0.1", "::1"): =, !=, in take addresses
  kIpNet,       // an address compared with networks: =, !=, in take CIDRs (10.0.0.0/8)
  kDouble,      // a ratio (proc.fdusage): compared as a number, shown with one decimal
};

// How many values a field has per event. A field with several is not a
// list: each comparison is made with every value, as Falco does.
enum class Multiplicity : uint8_t {
  kOne,
  // Any value matching decides, whatever the operator (proc.aname without
  // an index: some ancestor's name; `!=`: some ancestor's differs).
  kAnyValue,
  // Both ends of a socket (fd.ip, fd.port, fd.net): a comparison holds when
  // either end matches, but `!=` only when neither end equals.
  kEitherEnd,
};

std::string_view ValueTypeName(ValueType t);

// A field resolved for one condition: which value to read and its type.
// `id` is the fields layer's own: the compiler only passes it back.
struct FieldSpec {
  uint32_t id = 0;
  ValueType type = ValueType::kString;  // of each value
  Multiplicity multiplicity = Multiplicity::kOne;
};

// Resolves names (`proc.name`, `proc.aname[2]`, `evt.arg.path`). An unknown
// field is an error naming it, so a condition never silently reads nothing.
class FieldResolver {
 public:
  virtual ~FieldResolver() = default;
  // `field.transformers` are the compiler's business: resolve the bare field.
  virtual absl::StatusOr<FieldSpec> Resolve(const FieldRef& field) const = 0;
  // Why nothing on this machine fills `field` (it exists but is always
  // absent here), or empty when it is filled. A rule reading such a field
  // is named when it loads.
  virtual std::string Unfilled(const FieldRef&) const { return {}; }
  // Whether `field`'s value can arrive after the events it belongs to (a
  // container's metadata, fetched off the event path): a rule that read it
  // before it arrived is judged again when it does.
  virtual bool ArrivesLate(const FieldRef&) const { return false; }
  // Whether `field` is a name an address resolves to (fd.sip.name): it is
  // compared with =, != and in only, and the names compared with it are
  // the ones to resolve.
  virtual bool NamesAddresses(const FieldRef&) const { return false; }
  // Why a field Resolve does not know is left out, when it is a field of
  // Falco's that Kestrel deliberately does not offer; empty otherwise.
  virtual std::string WhyAbsent(std::string_view /*name*/) const { return {}; }
};

// One field's value for the current event. Views stay valid until the
// event ends. A field of several values (Multiplicity) gives them all in
// `items` (string and address types), `ints` or `uints`.
struct FieldValue {
  std::string_view str;                     // kString, kIpAddr, kIpNet
  int64_t i = 0;                            // kInt
  uint64_t u = 0;                           // kUint
  bool b = false;                           // kBool
  double d = 0;                             // kDouble
  std::span<const std::string_view> items;  // kStringList; several strings or addresses
  std::span<const int64_t> ints;
  std::span<const uint64_t> uints;

  // Back to no value, member by member: `= FieldValue{}` compiles to a
  // `rep stos`, whose start-up cost showed on every field read.
  void Clear() {
    str = {};
    i = 0;
    u = 0;
    b = false;
    d = 0;
    items = {};
    ints = {};
    uints = {};
  }
};

// The current event's fields. Read returns false when the field has no
// value for this event (no fd, a thread not in the table ...): every
// comparison on it is then false, as in Falco, and `exists` is false.
class FieldReader {
 public:
  virtual ~FieldReader() = default;
  virtual bool Read(const FieldSpec& field, FieldValue& out) = 0;
};

}  // namespace kestrel::engine::filter

#endif  // KESTREL_ENGINE_FILTER_FIELD_BINDING_H_
