#include "bss_view.h"

#include <unistd.h>

#include <type_traits>

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

size_t BssValueSize() { return sizeof(Bss); }

size_t BssMmapSize() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t value = (BssValueSize() + 7) & ~size_t{7};
  return (value + page - 1) / page * page;
}

}  // namespace kestrel::pman
