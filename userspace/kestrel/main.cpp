// kestrel: the command-line front end. Each verb lives in its own file; this
// one holds the table of verbs and the verbs about kestrel itself (help,
// version, completion).
#include <cstdio>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "kestrel/bench/bench_command.h"
#include "kestrel/bench/bench_options.h"
#include "kestrel/capture/capture_command.h"
#include "kestrel/capture/capture_options.h"
#include "kestrel/capture/dump_command.h"
#include "kestrel/common/bash_completion.h"
#include "kestrel/common/cli_app.h"
#include "kestrel/common/cli_validators.h"
#include "kestrel/common/verb.h"
#include "kestrel/control/settings_command.h"
#include "kestrel/control/settings_options.h"
#include "kestrel/control/stats_command.h"
#include "kestrel/control/stats_options.h"
#include "kestrel/control/syscalls_command.h"
#include "kestrel/control/syscalls_options.h"
#include "kestrel/recorder/recorder_command.h"
#include "kestrel/recorder/recorder_options.h"
#include "kestrel/rules/fields_command.h"
#include "kestrel/rules/rules_command.h"
#include "kestrel/run/run_command.h"
#include "kestrel/run/run_options.h"
#include "libpman.h"

namespace kestrel::cli {
namespace {

struct HelpOptions {
  std::vector<std::string> words;  // a verb, then its sub-verbs
};
struct CompletionOptions {
  std::string shell;
};
struct VersionOptions {};

void DefineHelpOptions(CLI::App& app, HelpOptions& options);
void DefineCompletionOptions(CLI::App& app, CompletionOptions& options);
void DefineVersionOptions(CLI::App&, VersionOptions&) {}
int RunHelp(const std::vector<std::string>& args);
int RunVersion(const std::vector<std::string>& args);
int RunCompletion(const std::vector<std::string>& args);

// Dispatch, `kestrel --help`, `kestrel help VERB` and the completion script
// all read this table.
const Verb kVerbs[] = {
    {"capture", kCaptureDescription, RunCapture,
     DefineForListing<CaptureOptions, DefineCaptureOptions>},
    {"stats", kStatsDescription, RunStats, DefineForListing<CaptureOptions, DefineStatsOptions>},
    {"syscalls", kSyscallsDescription, RunSyscalls,
     DefineForListing<SyscallsOptions, DefineSyscallsOptions>},
    {"settings", kSettingsDescription, RunSettings,
     DefineForListing<SettingsOptions, DefineSettingsOptions>},
    {"fields", kFieldsDescription, RunFields, DefineForListing<FieldsOptions, DefineFieldsOptions>},
    {"rules", kRulesDescription, RunRulesVerb, DefineForListing<RulesOptions, DefineRulesOptions>},
    {"recorder", "start or stop a flight recorder", RunRecorder,
     DefineForListing<RecorderOptions, DefineRecorderOptions>},
    {"dump", "print a flight recorder's newest records", RunDump,
     DefineForListing<DumpOptions, DefineDumpOptions>},
    {"run", kRunDescription, RunRun, DefineForListing<RunOptions, DefineRunOptions>},
    {"bench", "measure the probe's overhead and throughput", RunBench,
     DefineForListing<BenchOptions, DefineBenchOptions>},
    {"completion", "print a shell completion script (bash)", RunCompletion,
     DefineForListing<CompletionOptions, DefineCompletionOptions>},
    {"version", "print the versions of kestrel and of libpman's ABI", RunVersion,
     DefineForListing<VersionOptions, DefineVersionOptions>},
    {"help", "print the options of a command (same as kestrel COMMAND --help)", RunHelp,
     DefineForListing<HelpOptions, DefineHelpOptions>},
};

const Verb* FindVerb(std::string_view name) {
  for (const Verb& verb : kVerbs) {
    if (name == verb.name) return &verb;
  }
  return nullptr;
}

std::string Usage() {
  std::string text =
      "usage: kestrel COMMAND [OPTIONS]\n"
      "       kestrel COMMAND --help    the options of COMMAND, with an example\n"
      "       kestrel --version\n"
      "\n"
      "commands:\n";
  for (const Verb& verb : kVerbs)
    text += absl::StrFormat("  %-11s %s\n", verb.name, verb.description);
  text +=
      "\n"
      "exit codes:\n"
      "  0  ok\n"
      "  1  the run failed (privileges, BTF, kernel, no pinned capture)\n"
      "  2  usage error: the command line is wrong and nothing was done\n";
  return text;
}

std::vector<std::string> VerbNames() {
  std::vector<std::string> names;
  for (const Verb& verb : kVerbs) names.push_back(verb.name);
  return names;
}

void DefineHelpOptions(CLI::App& app, HelpOptions& options) {
  app.add_option("COMMAND", options.words, "the command, and its sub-commands, to describe")
      ->type_name(absl::StrJoin(VerbNames(), "|"));
}

int RunHelp(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("help", "Prints the options of COMMAND, or the list of commands.",
                  "kestrel help syscalls enable");
  HelpOptions options;
  DefineHelpOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  const std::vector<std::string>& words = options.words;
  if (words.empty()) {
    std::fputs(Usage().c_str(), stdout);
    return kExitOk;
  }
  const Verb* verb = FindVerb(words[0]);
  if (verb == nullptr) {
    return UsageError(*app, Quote(words[0]) + " is not a command: use one of " +
                                absl::StrJoin(VerbNames(), ", "));
  }
  std::vector<std::string> verb_args(words.begin() + 1, words.end());
  verb_args.push_back("--help");
  return verb->run(verb_args);
}

int RunVersion(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app = MakeVerbApp(
      "version", "Prints the versions of kestrel and of libpman's ABI.", "kestrel version");
  VersionOptions options;
  DefineVersionOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  absl::PrintF("kestrel %s\nlibpman ABI %d\n", KESTREL_VERSION, pman_abi_version());
  return kExitOk;
}

void DefineCompletionOptions(CLI::App& app, CompletionOptions& options) {
  app.add_option("SHELL", options.shell, "the shell to complete for")
      ->required()
      ->type_name("bash")
      ->check(OneOf({"bash"}));
}

int RunCompletion(const std::vector<std::string>& args) {
  std::unique_ptr<CLI::App> app =
      MakeVerbApp("completion", "Prints a completion script for SHELL (only bash for now).",
                  "source <(kestrel completion bash)");
  CompletionOptions options;
  DefineCompletionOptions(*app, options);
  if (std::optional<int> done = ParseVerb(*app, args)) return *done;
  std::fputs(BashCompletionScript(std::vector<Verb>(std::begin(kVerbs), std::end(kVerbs)),
                                  {"--help", "-h", "--version"})
                 .c_str(),
             stdout);
  return kExitOk;
}

int TopLevelUsageError(const std::string& what) {
  absl::FPrintF(stderr, "kestrel: %s\nRun 'kestrel --help' for the commands.\n", what);
  return kExitUsage;
}

}  // namespace
}  // namespace kestrel::cli

int main(int argc, char** argv) {
  using namespace kestrel::cli;
  if (argc < 2) {
    std::fputs(Usage().c_str(), stderr);
    return kExitUsage;
  }
  const std::string_view command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "--help" || command == "-h") return RunHelp(args);
  if (command == "--version") return RunVersion(args);
  if (const Verb* verb = FindVerb(command)) return verb->run(args);
  if (command.starts_with("-")) return TopLevelUsageError("unknown option " + Quote(command));
  return TopLevelUsageError("unknown command " + Quote(command));
}
