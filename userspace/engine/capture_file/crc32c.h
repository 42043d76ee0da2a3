// CRC32C (Castagnoli), the checksum of capture file blocks: the CPU's
// crc32 instruction where there is one, a table otherwise.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_CRC32C_H_
#define KESTREL_ENGINE_CAPTURE_FILE_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace kestrel::engine::capture_file {

// Extends `crc` (0 to start) with `n` bytes at `data`.
uint32_t Crc32c(uint32_t crc, const void* data, size_t n);

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_CRC32C_H_
