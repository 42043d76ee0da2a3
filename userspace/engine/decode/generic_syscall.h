// Decodes KESTREL_EVT_GENERIC_SYSCALL records.
#ifndef KESTREL_ENGINE_DECODE_GENERIC_SYSCALL_H_
#define KESTREL_ENGINE_DECODE_GENERIC_SYSCALL_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "record_view.h"

namespace kestrel::engine {

struct GenericSyscall {
  uint32_t id = 0;
  std::array<uint64_t, 6> args{};
  int64_t ret = 0;
};

absl::StatusOr<GenericSyscall> DecodeGenericSyscall(const RecordView& record);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_GENERIC_SYSCALL_H_
