#include "kestrel/run/run_options.h"

#include "kestrel/common/cli_validators.h"
#include "kestrel/common/ring_options.h"
#include "kestrel/control/pinned_control.h"

namespace kestrel::cli {

void DefineRunOptions(CLI::App& app, RunOptions& options) {
  app.add_option("-r,--rules", options.rules,
                 "a rules file, or a directory of them (*.yaml, *.yml by name); repeat for more, "
                 "loaded in order; replaces the config's rules_files")
      ->type_name("FILE|DIR")
      ->take_all()
      ->check(CLI::ExistingPath);
  app.add_option("-c,--config", options.config,
                 "a YAML config with Falco's keys (see -o); unknown keys are warned about")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  app.add_option("-o,--option", options.overrides,
                 "set a config key, after -c (repeatable): rules_files, json_output, "
                 "json_include_output_property, json_include_tags_property, rule_matching, "
                 "priority, stdout_output.enabled, file_output.{enabled,filename,keep_alive}, "
                 "syslog_output.enabled, http_output.{enabled,url}, "
                 "program_output.{enabled,program,keep_alive}, base_syscalls.{custom_set,repair}, "
                 "buffered_outputs, outputs.{rate,max_burst}, load_shedding.{enabled,start_fill,"
                 "stop_fill,min_seconds,sampling_ratio,keep_priority}")
      ->type_name("KEY=VALUE")
      ->take_all();
  CLI::Option* replay =
      app.add_option("--replay", options.replay,
                     "run the rules on a capture file (`kestrel capture -w`) as fast as it reads, "
                     "instead of live; no probe is loaded")
          ->type_name("FILE")
          ->check(CLI::ExistingFile);
  CLI::Option* dry = app.add_flag("--dry-run", options.dry_run,
                                  "print the syscalls the probe would capture, one per line with "
                                  "why, and exit without loading it");
  dry->excludes(replay);
  CLI::Option* list_all =
      app.add_flag("-L,--list-rules", options.list_rules,
                   "describe every rule, macro and list as `kestrel rules describe` does (JSON "
                   "with -o json_output=true, as Falco's -L), then exit; no probe is loaded");
  CLI::Option* list_one =
      app.add_option("-l,--describe-rule", options.rule,
                     "describe the rule RULE alone, as -L does (Falco's -l), then exit; exit 2 "
                     "when no rule has that name")
          ->type_name("RULE");
  CLI::Option* support =
      app.add_flag("--support", options.support,
                   "print one JSON document for a bug report (versions, kernel, the config as "
                   "loaded, each rules file's path, size and sha256), then exit; no probe is "
                   "loaded (Falco's --support)");
  for (CLI::Option* o : {list_all, list_one, support}) o->excludes(dry)->excludes(replay);
  list_all->excludes(list_one)->excludes(support);
  list_one->excludes(support);
  app.add_flag("-U,--unbuffered", options.unbuffered,
               "write and flush every alert at once (Falco's -U): buffered_outputs=false, over "
               "-c and every -o");
  app.add_option("--stats-interval", options.stats_interval_s,
                 "print a stats line on stderr every S seconds")
      ->type_name("S")
      ->check(Seconds(24 * 3600, "a day"));
  app.add_option("-M,--duration", options.duration_s,
                 "stop after S seconds, as a SIGINT would (Falco's -M); live runs only")
      ->type_name("S")
      ->check(Seconds(365.0 * 24 * 3600, "a year"))
      ->excludes(replay);
  app.add_option("-P,--pidfile", options.pidfile,
                 "write this process's pid to FILE while it runs (Falco's -P); removed on exit")
      ->type_name("FILE");
  app.add_flag("--strict", options.strict,
               "a rule naming a field Kestrel lacks is an error, not a warning and a skip");
  CLI::Option* pin = PinDirOption(app, &options.pin_dir);
  CLI::Option* no_pin = app.add_flag("--no-pin", options.no_pin,
                                     "do not pin the capture (`kestrel syscalls` and `kestrel "
                                     "settings` then cannot reach it)");
  no_pin->excludes(pin);
  app.add_flag("--lock-settings", options.lock_settings,
               "freeze the probe's settings and syscalls once set up: no process, this one "
               "included, can change them (no load shedding; a reload that needs other syscalls "
               "fails)");
  BufferBytesOption(app, &options.buffer_bytes);
  CpusPerBufferOption(app, &options.cpus_per_buffer);
}

}  // namespace kestrel::cli
