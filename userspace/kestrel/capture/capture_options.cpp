#include "kestrel/capture/capture_options.h"

#include <functional>
#include <limits>

#include "agent/probe/settings_keys.h"
#include "engine/decode/syscall_names.h"
#include "kestrel/common/cli_validators.h"
#include "kestrel/common/ring_options.h"

namespace kestrel::cli {
namespace {

void DefineSyscallSelection(CLI::App& app, CaptureOptions& options) {
  CLI::Option* syscalls = app.add_option_function<std::string>(
                                 "--syscalls",
                                 [&options](const std::string& list) {
                                   // Already checked by SyscallNames(), so this cannot fail.
                                   options.all_syscalls = false;
                                   options.syscalls = *engine::ParseSyscallList(list);
                                 },
                                 "capture only these syscalls (see `kestrel syscalls`)")
                              ->type_name("NAME,...")
                              ->check(SyscallNames());
  CLI::Option* all = app.add_flag_callback(
      "--all", [&options] { options.all_syscalls = true; }, "capture every syscall (the default)");
  syscalls->excludes(all);
}

// -w/-r and rotation. Reading a file loads no probe, so no probe flag may
// come with -r; a file holds records, not text, so -w takes no --json.
// Returns the check to run once the command line is parsed.
std::function<void()> DefineCaptureFileOptions(CLI::App& app, CaptureOptions& options) {
  CLI::Option* write = app.add_option("-w,--write", options.write_path,
                                      "write the records to a capture file instead of printing "
                                      "them (read it back with -r)")
                           ->type_name("FILE");
  CLI::Option* read =
      app.add_option("-r,--read", options.read_path,
                     "print a capture file as live events print, instead of capturing (no probe "
                     "is loaded; --syscalls, --count, --json apply)")
          ->type_name("FILE")
          ->check(CLI::ExistingFile);
  CLI::Option* rotate =
      app.add_option_function<uint64_t>(
             "--rotate-size", [&options](uint64_t mb) { options.rotate_bytes = mb << 20; },
             "with -w: past this many MB, FILE becomes FILE.1 (FILE.1 becomes FILE.2 ...) and a "
             "new FILE starts")
          ->type_name("MB")
          ->check(WholeNumber(1, 1 << 20));
  CLI::Option* keep = app.add_option("--rotate-keep", options.rotate_keep,
                                     "with --rotate-size: older files kept (default 0: only "
                                     "the current one)")
                          ->type_name("N")
                          ->check(WholeNumber(0, 1000));
  write->excludes(read);
  rotate->needs(write);
  keep->needs(rotate);
  return [&app, read, write] {
    if (write->count() > 0) {
      if (const CLI::Option* json = app.get_option_no_throw("--json"); json && json->count() > 0) {
        throw CLI::ExcludesError(write->get_name(), json->get_name());
      }
    }
    if (read->count() == 0) return;
    for (const CLI::Option* other : app.get_options()) {
      const std::string& name = other->get_name();
      if (other == read || other->get_positional() || other->count() == 0) continue;
      if (name == "--syscalls" || name == "--all" || name == "--count" || name == "--json" ||
          name == "--help") {
        continue;
      }
      throw CLI::ExcludesError(read->get_name(), name);
    }
  };
}

}  // namespace

void DefineProbeOptions(CLI::App& app, CaptureOptions& options) {
  DefineSyscallSelection(app, options);
  app.add_option("--pid", options.pid, "capture only this process (its threads included)")
      ->type_name("PID")
      // No pid is above the settings table's bound (the kernel's PID_MAX_LIMIT).
      ->check(
          WholeNumber(1, agent::FindSetting("target_tgid")->max, "must be a process id above 0"));
  app.add_option("--duration", options.duration_s, "stop after this many seconds (at most 30 days)")
      ->type_name("SECONDS")
      ->check(Seconds(kMaxDurationSeconds, "30 days"));
  app.add_flag("--io-data", options.io_data, "copy read/write data, up to the snaplen");
  AddSettingFlags(app, options.settings);
  BufferBytesOption(app, &options.buffer_bytes);
  CpusPerBufferOption(app, &options.cpus_per_buffer);
  OnlineCpusOnlyOption(app, &options.online_cpus_only);
  app.add_option_function<std::string>(
         "--settings-storage",
         [&options](const std::string& where) {
           options.settings_storage =
               where == "bss" ? PMAN_SETTINGS_STORAGE_BSS : PMAN_SETTINGS_STORAGE_ARRAY;
         },
         "where the probe keeps settings and syscall tables: a .bss global (the default) or a "
         "BPF_F_MMAPABLE array")
      ->type_name("bss|array")
      ->check(OneOf({"bss", "array"}));
}

void DefineCaptureOptions(CLI::App& app, CaptureOptions& options) {
  DefineProbeOptions(app, options);
  app.add_option("--count", options.count, "stop after N events")
      ->type_name("N")
      ->check(WholeNumber(1, std::numeric_limits<uint64_t>::max()));
  app.add_flag("--json", options.json, "one JSON object per event instead of text");
  CLI::Option* pin = app.add_flag_callback(
      "--pin", [&options] { options.pin_dir = ""; },
      "pin the capture at " PMAN_DEFAULT_PIN_DIR " for `kestrel settings` and `kestrel syscalls`");
  CLI::Option* pin_dir =
      app.add_option_function<std::string>(
             "--pin-dir", [&options](const std::string& dir) { options.pin_dir = dir; },
             "pin the capture at DIR instead")
          ->type_name("DIR")
          ->check(CLI::Validator(
              [](std::string& dir) -> std::string {
                return dir.empty() ? "needs a directory" : "";
              },
              ""));
  pin->excludes(pin_dir);
  app.add_flag("--lock-settings", options.lock_settings,
               "freeze the settings and syscall set once they are in place");
  std::function<void()> check_file_options = DefineCaptureFileOptions(app, options);
  CLI::Option* list_events =
      app.add_flag("--list-events", options.list_events,
                   "print every event with its syscall and typed parameters, and exit");
  // The schema listing loads nothing: any capture flag beside it is a
  // mistake. Checked once parsed rather than with excludes(), which would
  // print "Excludes: --list-events" under every flag of the help.
  app.parse_complete_callback([&app, list_events, check_file_options] {
    check_file_options();
    if (list_events->count() == 0) return;
    for (const CLI::Option* other : app.get_options()) {
      if (other != list_events && !other->get_positional() && other->count() > 0) {
        throw CLI::ExcludesError(list_events->get_name(), other->get_name());
      }
    }
  });
}

}  // namespace kestrel::cli
