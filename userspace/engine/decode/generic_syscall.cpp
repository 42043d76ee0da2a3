#include "generic_syscall.h"

#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "shared/event_types.h"

namespace kestrel::engine {

absl::StatusOr<GenericSyscall> DecodeGenericSyscall(const RecordView& record) {
  const kestrel_record_header& h = record.header();
  if (h.type != KESTREL_EVT_GENERIC_SYSCALL || h.nparams != KESTREL_GENERIC_NPARAMS) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "not a generic syscall record: type %u with %u parameters", h.type, h.nparams));
  }
  // Every parameter is an 8-byte integer (id, six arguments, return value):
  // the sizes are checked once, then read without a StatusOr each.
  for (uint32_t i = 0; i < KESTREL_GENERIC_NPARAMS; ++i) {
    const size_t got = record.param(i).size();
    if (got != sizeof(uint64_t)) return ParamSizeError(i, sizeof(uint64_t), got);
  }
  const auto read = [&record](uint32_t i) {
    uint64_t v;
    std::memcpy(&v, record.param(i).data(), sizeof(v));
    return v;
  };
  GenericSyscall out;
  out.id = static_cast<uint32_t>(read(0));
  for (uint32_t i = 0; i < out.args.size(); ++i) out.args[i] = read(1 + i);
  out.ret = static_cast<int64_t>(read(7));
  return out;
}

}  // namespace kestrel::engine
