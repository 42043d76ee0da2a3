// The one place that knows where the shared objects sit inside the probe's
// .bss (the layout comes from the generated skeleton).
#ifndef KESTREL_LIBPMAN_BSS_VIEW_H_
#define KESTREL_LIBPMAN_BSS_VIEW_H_

#include <cstddef>

#include "settings_control.h"

namespace kestrel::pman {

// `bss` is a mapping of the probe's .bss map.
SharedMemoryView ViewOfBss(void* bss);

// Bytes of the .bss map's single value.
size_t BssValueSize();

// Bytes to mmap for the .bss map (what libbpf maps: a whole page multiple).
size_t BssMmapSize();

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_BSS_VIEW_H_
