#include "embedded_object.h"

#include <sys/mman.h>

#include <cstdint>

#include "page_round.h"

namespace kestrel::pman {

void ReleaseResidentPages(const void* bytes, size_t size) {
  const uintptr_t page = PageBytes();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(bytes) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(bytes) + size + page - 1) / page * page;
  if (end <= begin) return;
  // Memory only: a failure leaves the pages resident, nothing else.
  (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace kestrel::pman
