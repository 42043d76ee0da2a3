#include "event_printer.h"

#include <cstring>
#include <ctime>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "control_event_format.h"
#include "engine/drop_marker.h"
#include "engine/event_decoder.h"
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

// A marker says the stream has a hole just before this point.
absl::Status FormatDropMarker(const engine::RecordView& view, bool json, uint64_t boot_time_ns,
                              std::string& line) {
  absl::StatusOr<engine::DropMarker> m = engine::DecodeDropMarker(view);
  if (!m.ok()) return m.status();
  const uint64_t wall_ns = boot_time_ns + view.header().ts_ns;
  line.clear();
  if (json) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"drop\":{\"cpu\":", m->cpu,
                    ",\"lost\":", m->lost, ",\"first_loss_ts\":", boot_time_ns + m->first_loss_ns,
                    ",\"last_loss_ts\":", boot_time_ns + m->last_loss_ns,
                    ",\"lost_total\":", m->lost_total, "}}");
    return absl::OkStatus();
  }
  AppendWallTime(line, wall_ns);
  absl::StrAppend(&line, " --- DROPPED ", m->lost, " record(s) on cpu ", m->cpu, " from ");
  AppendWallTime(line, boot_time_ns + m->first_loss_ns);
  line.append(" to ");
  AppendWallTime(line, boot_time_ns + m->last_loss_ns);
  absl::StrAppend(&line, " (", m->lost_total, " on this cpu in total)");
  return absl::OkStatus();
}

}  // namespace

void EventPrinter::AppendPrefix(const kestrel_record_header& h, std::string& line) {
  const std::string_view comm = names_.Comm(h.tgid, h.tid);
  const uint64_t wall_ns = boot_time_ns_ + h.ts_ns;
  if (json_) {
    absl::StrAppend(&line, "{\"ts\":", wall_ns, ",\"comm\":");
    AppendJsonString(line, comm);
    absl::StrAppend(&line, ",\"tid\":", h.tid, ",\"pid\":", h.tgid, ",\"cpu\":", h.cpu);
    if (h.flags & KESTREL_RECORD_TRUNCATED) line.append(",\"truncated\":true");
    if (h.flags & KESTREL_RECORD_IA32) line.append(",\"ia32\":true");
    return;
  }
  AppendWallTime(line, wall_ns);
  line.append(" ").append(comm);
  absl::StrAppend(&line, " ", h.tid, " ");
}

absl::Status EventPrinter::FormatGeneric(const engine::RecordView& view, std::string& line) {
  absl::StatusOr<engine::GenericSyscall> sc = engine::DecodeGenericSyscall(view);
  if (!sc.ok()) return sc.status();
  const kestrel_record_header& h = view.header();
  // A successful exec changes the comm we cached for this thread.
  static const uint32_t kExecve = engine::SyscallId("execve").value_or(UINT32_MAX);
  static const uint32_t kExecveat = engine::SyscallId("execveat").value_or(UINT32_MAX);
  if ((sc->id == kExecve || sc->id == kExecveat) && sc->ret == 0) names_.Forget(h.tid);
  AppendPrefix(h, line);
  if (json_) {
    line.append(",\"syscall\":");
    AppendJsonString(line, NameOf(sc->id));
    absl::StrAppend(&line, ",\"id\":", sc->id, ",\"args\":[");
    for (size_t i = 0; i < sc->args.size(); ++i) {
      absl::StrAppend(&line, i ? "," : "", sc->args[i]);
    }
    absl::StrAppend(&line, "],\"ret\":", sc->ret, "}");
    return absl::OkStatus();
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
  return absl::OkStatus();
}

absl::Status EventPrinter::FormatSpecific(const engine::RecordView& view, std::string& line) {
  absl::StatusOr<engine::DecodedEvent> event = engine::DecodedEvent::Decode(view);
  if (!event.ok()) return event.status();
  const kestrel_record_header& h = view.header();
  if ((event->info().syscall == "execve" || event->info().syscall == "execveat") &&
      event->Int("res") == 0) {
    std::optional<std::string> comm = event->String("comm");
    if (comm && !comm->empty()) {
      names_.Remember(h.tid, *std::move(comm));
    } else {
      names_.Forget(h.tid);
    }
  }
  AppendPrefix(h, line);
  if (json_) {
    line.append(",\"event\":");
    AppendJsonString(line, event->info().syscall);
    line.append(",\"params\":{");
    event->AppendParams(line, /*json=*/true);
    line.append("}}");
    return absl::OkStatus();
  }
  line.append(event->info().syscall).append(" ");
  event->AppendParams(line, /*json=*/false);
  if (h.flags & KESTREL_RECORD_TRUNCATED) line.append(" (truncated)");
  if (h.flags & KESTREL_RECORD_IA32) line.append(" (ia32)");
  return absl::OkStatus();
}

absl::Status EventPrinter::Format(const kestrel_record_header* record, std::string& line) {
  absl::StatusOr<engine::RecordView> view =
      engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES);
  if (!view.ok()) return view.status();
  line.clear();
  if (engine::IsDropMarker(*view)) return FormatDropMarker(*view, json_, boot_time_ns_, line);
  switch (view->header().type) {
    case KESTREL_EVT_SETTINGS_CHANGED:
    case KESTREL_EVT_DROP_START:
    case KESTREL_EVT_DROP_STOP:
      return FormatControlRecord(*view, json_, boot_time_ns_, line);
    default:
      break;
  }
  if (view->header().type == KESTREL_EVT_GENERIC_SYSCALL) return FormatGeneric(*view, line);
  return FormatSpecific(*view, line);
}

absl::Status EventPrinter::Print(const kestrel_record_header* record) {
  if (absl::Status s = Format(record, line_); !s.ok()) return s;
  line_.push_back('\n');
  std::fwrite(line_.data(), 1, line_.size(), out_);
  return absl::OkStatus();
}

}  // namespace kestrel::cli
