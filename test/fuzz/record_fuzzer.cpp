// Arbitrary bytes as a stream of ring records: lying lengths, truncated
// parameters, parameter counts past the schema, unknown event types. Each
// record goes through everything a live record meets: the record view, the
// decoder, the thread and fd tables, both printers, and field extraction
// under conditions that read every kind of field.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/fields/event_context.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/filter/filter_program.h"
#include "engine/filter/parser.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"

namespace {

using namespace kestrel::engine;  // NOLINT: a fuzzer's few lines

// Conditions touching every field class, so extraction runs on hostile
// values: paths, tuples, ancestors, arguments by name and position.
constexpr const char* kConditions[] = {
    "evt.type in (openat, execve, connect, clone) and evt.res = SUCCESS",
    "proc.name startswith sh or proc.pname = bash or proc.aname[3] = init",
    "fd.name pmatch (/etc, /tmp) or fd.directory = /root or fd.filename glob '*.so'",
    "fd.sip = 127.0.0.1 or fd.sport > 1024 or fd.l4proto = tcp or fd.typechar = f",
    "evt.arg.flags contains O_TRUNC or evt.arg.mode contains S_ISUID or evt.arg[1] exists",
    "proc.cmdline contains stratum or proc.args icontains x or proc.env exists",
    "user.name = root or group.name = root or container.id != host",
    "fs.path.name endswith _history or fs.path.source exists or fs.path.target exists",
    "evt.buffer bcontains 00 or len(evt.args) > 3 or tolower(proc.exe) regex '.*sh'",
};

struct Engine {
  Engine() : threads(Options()), extractor(registry, nullptr) {
    for (const char* text : kConditions) {
      auto expr = filter::ParseCondition(text);
      if (!expr.ok()) std::abort();
      auto id = program.Add(**expr, registry);
      if (!id.ok()) std::abort();
      ids.push_back(*id);
    }
    null = std::fopen("/dev/null", "w");
  }
  static ThreadTableOptions Options() {
    ThreadTableOptions o;
    o.proc_fallback = false;  // random tids must not read the host's /proc
    o.max_entries = 256;      // reach eviction
    return o;
  }

  ThreadTable threads;
  fields::FieldRegistry registry;
  fields::FieldExtractor extractor;
  filter::FilterProgram program;
  std::vector<filter::FilterProgram::ConditionId> ids;
  std::FILE* null = nullptr;
};

void Evaluate(Engine& e, const fields::EventContext& ctx) {
  e.extractor.SetEvent(ctx);
  e.program.BeginEvent(e.extractor);
  for (auto id : e.ids) (void)e.program.Matches(id);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Engine* engine = new Engine();
  Engine& e = *engine;
  EventPrinter text(OutputStyle::kText, 0, e.threads, e.null);
  EventPrinter json(OutputStyle::kJson, 0, e.threads, e.null);
  std::string line;
  uint64_t num = 0;
  size_t offset = 0;
  while (offset < size) {
    absl::StatusOr<RecordView> view = RecordView::Parse(data + offset, size - offset);
    if (!view.ok()) break;
    const uint32_t len = view->header().len;
    if (len == 0 || len > size - offset) break;
    // Copied so a decoder reading past `len` is caught by ASan.
    std::vector<uint8_t> copy(data + offset, data + offset + len);
    offset += len;
    auto record = RecordView::Parse(copy.data(), copy.size());
    if (!record.ok()) continue;
    const auto* header = reinterpret_cast<const kestrel_record_header*>(copy.data());
    (void)text.Format(header, line);
    (void)json.Format(header, line);
    if (absl::StatusOr<GenericSyscall> sc = DecodeGenericSyscall(*record); sc.ok()) {
      Evaluate(e, fields::MakeGenericContext(*header, *sc, e.threads, ++num, 0));
    } else if (absl::StatusOr<DecodedEvent> ev = DecodedEvent::Decode(*record); ev.ok()) {
      Evaluate(e, fields::MakeEventContext(*ev, e.threads, ++num, 0));
    }
  }
  return 0;
}
