// Opening the BPF objects embedded in the binary by their skeletons.
#ifndef KESTREL_LIBPMAN_EMBEDDED_OBJECT_H_
#define KESTREL_LIBPMAN_EMBEDDED_OBJECT_H_

#include <bpf/libbpf.h>

#include <cstddef>

#include "kernel_btf.h"

namespace kestrel::pman {

// Drops the pages holding [bytes, bytes + size) from the process's resident
// set, the partial pages at both ends included. They must be read-only pages
// of a mapped file, which a later read brings back from the page cache
// unchanged, neighbours included.
void ReleaseResidentPages(const void* bytes, size_t size);

// Opens a skeleton's embedded object with the kernel BTF options, then
// releases the pages of `embedded`, the skeletons' functions that return
// their objects: this one and those compiled beside it. libbpf's open
// copies everything it keeps (instructions, BTF, map images) and forgets
// the buffer, so the object's megabyte would otherwise stay resident, and
// be resident during the load, when libbpf's parse of the kernel's BTF makes
// the process's peak. The neighbours go too: the kernel maps a large
// page-cache folio whole, so reading one object's end maps the next one's
// start. nullptr with errno set when the open fails.
template <typename Skel, typename... ElfBytes>
Skel* OpenEmbeddedSkeleton(Skel* (*open)(const bpf_object_open_opts*), ElfBytes... embedded) {
  const bpf_object_open_opts opts = KernelBtfOpenOptions();
  Skel* skel = open(&opts);
  if (skel != nullptr) {
    for (const void* (*elf_bytes)(size_t*) : {embedded...}) {
      size_t size = 0;
      const void* bytes = elf_bytes(&size);
      ReleaseResidentPages(bytes, size);
    }
  }
  return skel;
}

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_EMBEDDED_OBJECT_H_
