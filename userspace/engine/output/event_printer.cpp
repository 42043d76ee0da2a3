#include "event_printer.h"

#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "control_format.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/syscall_names.h"
#include "escape.h"
#include "param_format.h"
#include "shared/event_types.h"
#include "wall_time.h"

namespace kestrel::engine {
namespace {

// Small values and negatives (AT_FDCWD, -1) read best in decimal; pointers
// and flag words in hex.
void AppendArg(std::string& out, uint64_t value) {
  const auto as_signed = static_cast<int64_t>(value);
  if (as_signed >= -4096 && as_signed <= 65535) {
    absl::StrAppend(&out, as_signed);
  } else {
    absl::StrAppendFormat(&out, "%#x", value);
  }
}

std::string_view NameOf(uint32_t id) {
  std::string_view name = SyscallName(id);
  return name.empty() ? std::string_view("unknown") : name;
}

// Events of no syscall (PROCESS_EXIT) go by their schema name, lower-case
// like the syscalls: "process_exit".
std::string EventName(const EventInfo& info) {
  if (!info.syscall.empty()) return std::string(info.syscall);
  std::string name(info.name);
  absl::AsciiStrToLower(&name);
  return name;
}

bool IsExec(uint16_t type) { return type == KESTREL_EVT_EXECVE || type == KESTREL_EVT_EXECVEAT; }

}  // namespace

ShownSyscalls::ShownSyscalls(const std::vector<uint32_t>& ids, bool listed_are_shown)
    : listed_are_shown_(listed_are_shown) {
  for (uint32_t id : ids) {
    if (id >= listed_.size()) listed_.resize(id + 1);
    listed_[id] = true;
  }
}

EventPrinter::EventPrinter(OutputStyle style, uint64_t boot_time_ns, ThreadTable& threads,
                           std::FILE* out, ShownSyscalls shown)
    : style_(style),
      boot_time_ns_(boot_time_ns),
      threads_(threads),
      out_(out),
      shown_(std::move(shown)),
      shown_by_type_(UINT16_MAX + 1, -1) {}

bool EventPrinter::ShowsEventType(uint16_t type, std::string_view syscall) {
  int8_t& known = shown_by_type_[type];
  if (known < 0) {
    if (type == KESTREL_EVT_PROCESS_EXIT) {
      known = shown_.Shows(SyscallId("exit").value_or(UINT32_MAX)) ||
              shown_.Shows(SyscallId("exit_group").value_or(UINT32_MAX));
    } else if (syscall.empty()) {
      known = 1;
    } else {
      known = shown_.Shows(SyscallId(syscall).value_or(UINT32_MAX));
    }
  }
  return known == 1;
}

std::string EventPrinter::CommOf(const kestrel_record_header& h) {
  const ThreadInfo* t = threads_.Resolve(h.tgid, h.tid);
  return t == nullptr || t->comm.empty() ? std::string("?") : t->comm;
}

void EventPrinter::AppendPrefix(const kestrel_record_header& h, std::string_view comm,
                                std::string& line) {
  const uint64_t wall_ns = boot_time_ns_ + h.ts_ns;
  if (style_ == OutputStyle::kJson) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"comm\":");
    AppendJsonString(line, comm);
    absl::StrAppend(&line, ",\"tid\":", h.tid, ",\"pid\":", h.tgid, ",\"cpu\":", h.cpu);
    if (h.flags & KESTREL_RECORD_TRUNCATED) line.append(",\"truncated\":true");
    if (h.flags & KESTREL_RECORD_IA32) line.append(",\"ia32\":true");
    return;
  }
  AppendWallTime(line, wall_ns);
  line.push_back(' ');
  AppendTextEscaped(line, comm);
  absl::StrAppend(&line, " ", h.tid, " ");
}

absl::StatusOr<PrintOutcome> EventPrinter::FormatGeneric(const RecordView& view,
                                                         std::string& line) {
  absl::StatusOr<GenericSyscall> sc = DecodeGenericSyscall(view);
  if (!sc.ok()) return sc.status();
  const kestrel_record_header& h = view.header();
  if (!shown_.Shows(sc->id)) {
    threads_.ApplyGeneric(h, *sc);
    return PrintOutcome::kStateOnly;
  }
  // A generic record carries no names: an exec's new name can only be
  // looked up after the table forgot the old one.
  static const uint32_t kExecve = SyscallId("execve").value_or(UINT32_MAX);
  static const uint32_t kExecveat = SyscallId("execveat").value_or(UINT32_MAX);
  const bool exec = sc->id == kExecve || sc->id == kExecveat;
  if (exec) threads_.ApplyGeneric(h, *sc);
  const std::string comm = CommOf(h);
  if (!exec) threads_.ApplyGeneric(h, *sc);
  AppendPrefix(h, comm, line);
  if (style_ == OutputStyle::kJson) {
    line.append(",\"syscall\":");
    AppendJsonString(line, NameOf(sc->id));
    absl::StrAppend(&line, ",\"id\":", sc->id, ",\"args\":[");
    for (size_t i = 0; i < sc->args.size(); ++i) {
      absl::StrAppend(&line, i ? "," : "", sc->args[i]);
    }
    absl::StrAppend(&line, "],\"ret\":", sc->ret, "}");
    return PrintOutcome::kEventShown;
  }
  line.append(NameOf(sc->id)).append("(");
  for (size_t i = 0; i < sc->args.size(); ++i) {
    if (i) line.append(", ");
    AppendArg(line, sc->args[i]);
  }
  absl::StrAppend(&line, ") = ", sc->ret);
  if (sc->ret < 0 && sc->ret >= -4095) {
    if (const char* name = strerrorname_np(static_cast<int>(-sc->ret))) {
      absl::StrAppend(&line, " ", name);
    }
  }
  return PrintOutcome::kEventShown;
}

absl::StatusOr<PrintOutcome> EventPrinter::FormatSpecific(const RecordView& view,
                                                          std::string& line) {
  absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(view, *schema_);
  if (!event.ok()) return event.status();
  const kestrel_record_header& h = view.header();
  if (!ShowsEventType(h.type, event->info().syscall)) {
    threads_.ApplyEvent(*event);
    return PrintOutcome::kStateOnly;
  }
  // An exec's line names the program it ran (its record carries the comm);
  // every other line names the thread as it was when the call was made.
  const bool exec = IsExec(h.type);
  if (exec) threads_.ApplyEvent(*event);
  const std::string comm = CommOf(h);
  if (!exec) threads_.ApplyEvent(*event);
  AppendPrefix(h, comm, line);
  if (style_ == OutputStyle::kJson) {
    line.append(",\"event\":");
    AppendJsonString(line, EventName(event->info()));
    line.append(",\"params\":{");
    AppendParams(line, *event, style_);
    line.append("}}");
    return PrintOutcome::kEventShown;
  }
  line.append(EventName(event->info()));
  line.push_back(' ');
  AppendParams(line, *event, style_);
  if (h.flags & KESTREL_RECORD_TRUNCATED) line.append(" (truncated)");
  if (h.flags & KESTREL_RECORD_IA32) line.append(" (ia32)");
  return PrintOutcome::kEventShown;
}

absl::StatusOr<PrintOutcome> EventPrinter::Format(const kestrel_record_header* record,
                                                  std::string& line) {
  // A capture file's records are read through the file's schema, so their
  // schema version need not be this build's.
  absl::StatusOr<RecordView> view =
      RecordView::Parse(record, static_cast<size_t>(KESTREL_MAX_RECORD_BYTES), *schema_);
  if (!view.ok()) return view.status();
  line.clear();
  if (IsControlRecord(*view)) {
    if (absl::Status s = FormatControlRecord(*view, style_, boot_time_ns_, line); !s.ok()) {
      return s;
    }
    return PrintOutcome::kControlShown;
  }
  if (view->header().type == KESTREL_EVT_GENERIC_SYSCALL) return FormatGeneric(*view, line);
  return FormatSpecific(*view, line);
}

absl::StatusOr<PrintOutcome> EventPrinter::Print(const kestrel_record_header* record) {
  absl::StatusOr<PrintOutcome> outcome = Format(record, line_);
  if (!outcome.ok() || *outcome == PrintOutcome::kStateOnly) return outcome;
  line_.push_back('\n');
  std::fwrite(line_.data(), 1, line_.size(), out_);
  return outcome;
}

}  // namespace kestrel::engine
