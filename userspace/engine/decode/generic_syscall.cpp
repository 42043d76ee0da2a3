#include "generic_syscall.h"

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
  GenericSyscall out;
  absl::StatusOr<uint64_t> id = record.Integer<uint64_t>(0);
  if (!id.ok()) return id.status();
  out.id = static_cast<uint32_t>(*id);
  for (uint32_t i = 0; i < out.args.size(); ++i) {
    absl::StatusOr<uint64_t> arg = record.Integer<uint64_t>(1 + i);
    if (!arg.ok()) return arg.status();
    out.args[i] = *arg;
  }
  absl::StatusOr<int64_t> ret = record.Integer<int64_t>(7);
  if (!ret.ok()) return ret.status();
  out.ret = *ret;
  return out;
}

}  // namespace kestrel::engine
