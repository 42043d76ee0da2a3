// One parameter of a decoded event as the fields show it: Falco's text
// (flags by name, addresses as ip:port) for evt.arg, the raw value for
// evt.rawarg. Strings are not escaped here: conditions compare the bytes
// the kernel recorded, and the output layer escapes what it prints.
#ifndef KESTREL_ENGINE_FIELDS_PARAM_TEXT_H_
#define KESTREL_ENGINE_FIELDS_PARAM_TEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "engine/decode/event_decoder.h"

namespace kestrel::engine::fields {

// The bytes of a string parameter (path, charbuf, bytebuf) without the
// terminating NUL; a view into the record.
std::string_view ParamBytes(const DecodedEvent& event, int index);

// Whether parameter `index` is read as a number (fds, ids, flags, modes).
bool IsNumericParam(const DecodedEvent& event, int index);
std::optional<int64_t> ParamNumber(const DecodedEvent& event, int index);

// Appends parameter `index` as text.
void AppendParamText(std::string& out, const DecodedEvent& event, int index);

// Appends every parameter as "name=value" pairs, space separated (evt.args).
// `state_text` gives the text of a parameter that needs more than the event
// (a uid's user name, a relative path resolved): it appends it and returns
// true, or returns false to have the event's own text used.
void AppendAllParams(std::string& out, const DecodedEvent& event,
                     absl::FunctionRef<bool(std::string& out, int index)> state_text);

// The index of the parameter evt.arg[n] names, or -1. Falco numbers an
// event's parameters in its own order (engine/decode/falco_event_table.h),
// so a condition written for Falco reads the same parameter here; events
// Falco records generically or not at all use the schema's order. A lookup
// by name: the registry calls it once per event type at compile time.
int ParamAtPosition(const EventInfo& info, uint32_t n);

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_PARAM_TEXT_H_
