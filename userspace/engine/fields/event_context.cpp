#include "event_context.h"

#include "engine/state/fd_table.h"

namespace kestrel::engine::fields {

int64_t EventFd(const DecodedEvent& event) {
  const EventInfo& info = event.info();
  if (info.return_index >= 0 && info.params[info.return_index].type == KPT_FD) {
    const std::optional<int64_t> ret = event.Return();
    if (ret && *ret >= 0) return *ret;
    // A failed open names no descriptor; accept's `fd` argument is the
    // listener, not what the call is about.
    return -1;
  }
  if (const int i = info.ParamIndex(KnownParam::kFd); i >= 0 && info.params[i].type == KPT_FD) {
    return event.Int(KnownParam::kFd).value_or(-1);
  }
  // A call on a path relative to a directory fd (unlinkat, mkdirat ...) is
  // about that folder, as Falco has it; AT_FDCWD names none.
  if (const int i = info.ParamIndex(KnownParam::kDirfd); i >= 0 && info.params[i].type == KPT_FD) {
    const int64_t dirfd = event.Int(KnownParam::kDirfd).value_or(-1);
    return dirfd >= 0 ? dirfd : -1;
  }
  return -1;
}

namespace {

void LookUpThreadAndFd(EventContext& ctx, const ThreadTable& threads) {
  ctx.threads = &threads;
  ctx.thread = threads.Find(ctx.header->tid);
  if (ctx.thread != nullptr && ctx.fd >= 0 && ctx.thread->fds != nullptr) {
    ctx.fd_info = ctx.thread->fds->Find(ctx.fd);
  }
}

}  // namespace

EventContext MakeEventContext(const DecodedEvent& event, const ThreadTable& threads, uint64_t num,
                              uint64_t boot_time_ns) {
  EventContext ctx;
  ctx.header = &event.record().header();
  ctx.event = &event;
  ctx.fd = EventFd(event);
  ctx.num = num;
  ctx.boot_time_ns = boot_time_ns;
  LookUpThreadAndFd(ctx, threads);
  return ctx;
}

EventContext MakeGenericContext(const kestrel_record_header& header, const GenericSyscall& syscall,
                                const ThreadTable& threads, uint64_t num, uint64_t boot_time_ns) {
  EventContext ctx;
  ctx.header = &header;
  ctx.generic = &syscall;
  ctx.num = num;
  ctx.boot_time_ns = boot_time_ns;
  LookUpThreadAndFd(ctx, threads);
  return ctx;
}

}  // namespace kestrel::engine::fields
