// Sizes of mappings: the kernel maps whole pages.
#ifndef KESTREL_LIBPMAN_PAGE_ROUND_H_
#define KESTREL_LIBPMAN_PAGE_ROUND_H_

#include <unistd.h>

#include <cstddef>

namespace kestrel::pman {

inline size_t PageBytes() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// `bytes` rounded up to a whole number of pages.
inline size_t PageRound(size_t bytes) {
  const size_t page = PageBytes();
  return (bytes + page - 1) / page * page;
}

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_PAGE_ROUND_H_
