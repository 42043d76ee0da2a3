#include "event_printer.h"

#include <cstring>
#include <ctime>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "control_event_format.h"
#include "engine/generic_syscall.h"
#include "engine/record_view.h"
#include "engine/syscall_names.h"
#include "shared/event_types.h"
#include "text_format.h"

namespace kestrel::cli {
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
  std::string_view name = engine::SyscallName(id);
  return name.empty() ? std::string_view("unknown") : name;
}

}  // namespace

absl::Status EventPrinter::Format(const kestrel_record_header* record, std::string& line) {
  absl::StatusOr<engine::RecordView> view =
      engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES);
  if (!view.ok()) return view.status();
  if (view->header().type != KESTREL_EVT_GENERIC_SYSCALL) {
    return FormatControlRecord(*view, json_, boot_time_ns_, line);
  }
  absl::StatusOr<engine::GenericSyscall> sc = engine::DecodeGenericSyscall(*view);
  if (!sc.ok()) return sc.status();
  const kestrel_record_header& h = view->header();
  // A successful exec changes the comm we cached for this thread.
  static const uint32_t kExecve = engine::SyscallId("execve").value_or(UINT32_MAX);
  static const uint32_t kExecveat = engine::SyscallId("execveat").value_or(UINT32_MAX);
  if ((sc->id == kExecve || sc->id == kExecveat) && sc->ret == 0) {
    names_.Forget(h.tid);
  }
  const std::string_view comm = names_.Comm(h.tgid, h.tid);
  const uint64_t wall_ns = boot_time_ns_ + h.ts_ns;

  line.clear();
  if (json_) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"comm\":");
    AppendJsonString(line, comm);
    absl::StrAppend(&line, ",\"tid\":", h.tid, ",\"pid\":", h.tgid, ",\"cpu\":", h.cpu,
                    ",\"syscall\":");
    AppendJsonString(line, NameOf(sc->id));
    absl::StrAppend(&line, ",\"id\":", sc->id, ",\"args\":[");
    for (size_t i = 0; i < sc->args.size(); ++i) {
      absl::StrAppend(&line, i ? "," : "", sc->args[i]);
    }
    absl::StrAppend(&line, "],\"ret\":", sc->ret, "}");
    return absl::OkStatus();
  }
  AppendWallTime(line, wall_ns);
  line.append(" ").append(comm);
  absl::StrAppend(&line, " ", h.tid, " ");
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
  return absl::OkStatus();
}

absl::Status EventPrinter::Print(const kestrel_record_header* record) {
  if (absl::Status s = Format(record, line_); !s.ok()) return s;
  line_.push_back('\n');
  std::fwrite(line_.data(), 1, line_.size(), out_);
  return absl::OkStatus();
}

}  // namespace kestrel::cli
