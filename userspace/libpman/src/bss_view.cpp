#include "bss_view.h"

#include <unistd.h>

#include <type_traits>

#include <bpf/libbpf.h>

#include "kestrel_probe.skel.h"

namespace kestrel::pman {
namespace {

// The skeleton nests the .bss layout inside struct kestrel_probe in C++.
using Bss = std::remove_pointer_t<decltype(kestrel_probe::bss)>;

}  // namespace

SharedMemoryView ViewOfBss(void* bss) {
  auto* b = static_cast<Bss*>(bss);
  return SharedMemoryView{.interesting = b->interesting_syscalls,
                          .drop_class = b->syscall_drop_class,
                          .store = &b->settings_store,
                          .generation = &b->settings_generation};
}

// The .bss map's value is the linked object's .bss section, which can be
// larger than the skeleton's struct: `bpftool gen object` keeps the space of
// every object's copy of the __weak globals and resolves the names to the
// first. Read the real size from the embedded object, once.
size_t BssValueSize() {
  static const size_t size = [] {
    kestrel_probe* skel = kestrel_probe__open();
    if (skel == nullptr) return sizeof(Bss);
    const size_t value = bpf_map__value_size(skel->maps.bss);
    kestrel_probe__destroy(skel);
    return value;
  }();
  return size;
}

size_t BssMmapSize() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t value = (BssValueSize() + 7) & ~size_t{7};
  return (value + page - 1) / page * page;
}

}  // namespace kestrel::pman
