// Kestrel's conventions around CLI11, shared by every verb: how a verb's
// arguments are parsed, how --help and usage errors end, and the exit codes.
//
// Each verb defines its flags in a `DefineXOptions(CLI::App&, XOptions&)`
// function, so one definition serves parsing, --help and the generated shell
// completion; its `RunX(args)` builds an app, calls ParseVerb, then runs.
#ifndef KESTREL_CLI_CLI_APP_H_
#define KESTREL_CLI_CLI_APP_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "agent/quote.h"

namespace kestrel::cli {

// Exit codes of every verb (documented in `kestrel --help`).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the run itself failed (privileges, BTF, kernel)
inline constexpr int kExitUsage = 2;    // bad command line: nothing was done

// An app for `kestrel VERB`, with Kestrel's help formatting and error style.
// `example` is printed under the help text ("Example:\n  kestrel ...").
// (CLI::App can be neither copied nor moved, hence the pointer.)
std::unique_ptr<CLI::App> MakeVerbApp(std::string_view verb, std::string_view description,
                                      std::string_view example);

// A sub-verb such as `kestrel syscalls enable`, with its own --help and example.
CLI::App* AddSubVerb(CLI::App& app, std::string_view name, std::string_view description,
                     std::string_view example);

// Parses `args` (the words after the verb). Returns nullopt when the verb
// should run, or the exit code to return at once: 0 after printing --help to
// stdout, kExitUsage after printing "kestrel VERB: <what is wrong>" and a
// pointer to --help on stderr. A flag given twice is a usage error.
std::optional<int> ParseVerb(CLI::App& app, const std::vector<std::string>& args);

// What is wrong with `args` for `app`, in the words ParseVerb prints after
// "kestrel VERB: ", or nullopt when they parse. A help flag is not a
// problem: it throws CLI::CallForHelp / CLI::CallForAllHelp as in CLI11.
std::optional<std::string> FindUsageProblem(CLI::App& app, const std::vector<std::string>& args);

// For a bad argument only found once the verb runs (e.g. a setting the
// running capture refuses): prints the same two lines as ParseVerb, naming
// the sub-verb that was parsed, and returns kExitUsage.
int UsageError(const CLI::App& app, std::string_view what);

using agent::Quote;

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_CLI_APP_H_
