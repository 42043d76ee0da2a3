// The parameters of a decoded event as text ("name=value ...") or as the
// members of a JSON object ("\"name\":value,...").
#ifndef KESTREL_ENGINE_OUTPUT_PARAM_FORMAT_H_
#define KESTREL_ENGINE_OUTPUT_PARAM_FORMAT_H_

#include <string>

#include "engine/decode/event_decoder.h"
#include "output_style.h"

namespace kestrel::engine {

// Appends every parameter of `event`, in schema order. Strings are escaped
// by escape.h; a parameter with no value is "<none>" (text) or null (JSON).
void AppendParams(std::string& out, const DecodedEvent& event, OutputStyle style);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_OUTPUT_PARAM_FORMAT_H_
