// The two line styles every printer offers.
#ifndef KESTREL_ENGINE_OUTPUT_OUTPUT_STYLE_H_
#define KESTREL_ENGINE_OUTPUT_OUTPUT_STYLE_H_

namespace kestrel::engine {

enum class OutputStyle {
  kText,  // one human-readable line per record
  kJson,  // one JSON object per line (JSON Lines)
};

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_OUTPUT_OUTPUT_STYLE_H_
