#include "kestrel/common/cli_app.h"

#include <cstdio>
#include <iostream>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"

namespace kestrel::cli {
namespace {

// The apps the user reached, outermost first: the verb, then each sub-verb
// that was parsed (CLI11 keeps them even when parsing failed).
std::vector<const CLI::App*> ParsedChain(const CLI::App& app) {
  std::vector<const CLI::App*> chain{&app};
  while (!chain.back()->get_subcommands().empty()) {
    chain.push_back(chain.back()->get_subcommands().front());
  }
  return chain;
}

// "kestrel syscalls enable": the verb app's name then each sub-verb's.
std::string ChainName(const std::vector<const CLI::App*>& chain) {
  std::string name = chain.front()->get_name();
  for (size_t i = 1; i < chain.size(); ++i) name += " " + chain[i]->get_name();
  return name;
}

const CLI::Option* FindOption(const std::vector<const CLI::App*>& chain, const std::string& name) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (const CLI::Option* opt = (*it)->get_option_no_throw(name)) return opt;
  }
  return nullptr;
}

std::string SubVerbNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return absl::StrJoin(names, ", ");
}

// CLI11's messages are written for programmers ("The following argument was
// not expected: ..."); Kestrel's name the flag, then what is wrong with it.
std::string Describe(const CLI::ParseError& e, const CLI::App& app,
                     const std::vector<const CLI::App*>& chain) {
  const std::string what = e.what();
  // Not e.get_name(): some CLI11 errors put the app's name there.
  const bool extras_error = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
  const bool required_error = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr;
  const CLI::App& reached = *chain.back();
  const std::vector<std::string> extras = app.remaining(true);
  // CLI11 checks a missing sub-verb before unknown words: name the word.
  if (extras_error || (required_error && !extras.empty())) {
    if (extras.empty()) return what;
    const std::string& word = extras.front();
    if (absl::StartsWith(word, "-")) return "unknown option " + Quote(word);
    if (!SubVerbNames(reached).empty() && reached.get_subcommands().empty()) {
      return "unknown sub-command " + Quote(word) + ": use one of " + SubVerbNames(reached);
    }
    return "unexpected argument " + Quote(word);
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    const std::string name = what.substr(0, what.find(':'));
    if (const CLI::Option* opt = FindOption(chain, name)) {
      return name + (opt->count() > 1 ? ": given more than once" : ": needs a value");
    }
    return what;
  }
  if (dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr) {
    const size_t at = what.find(" excludes ");
    if (at == std::string::npos) return what;
    return what.substr(0, at) + " and " + what.substr(at + 10) + " cannot be used together";
  }
  if (required_error) {
    if (absl::StrContains(what, "subcommand")) return "needs one of " + SubVerbNames(reached);
    if (absl::EndsWith(what, " is required")) {
      return "needs " + what.substr(0, what.size() - std::string(" is required").size());
    }
  }
  return what;
}

// CLI11 keeps the last of a repeated flag; Kestrel refuses the repeat, since
// `--json --json` or `--all --all` is more likely a mistake than intent.
std::optional<std::string> RepeatedOption(const std::vector<const CLI::App*>& chain) {
  for (const CLI::App* app : chain) {
    for (const CLI::Option* opt : app->get_options()) {
      // Options meant to be repeated (-r FILE -r FILE) take every value.
      if (opt->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll) continue;
      if (!opt->get_positional() && opt->count() > 1) {
        return opt->get_name() + ": given more than once";
      }
    }
  }
  return std::nullopt;
}

int PrintUsageError(const std::vector<const CLI::App*>& chain, std::string_view what) {
  const std::string name = ChainName(chain);
  std::fprintf(stderr, "%s: %.*s\nRun '%s --help' for the options.\n", name.c_str(),
               static_cast<int>(what.size()), what.data(), name.c_str());
  return kExitUsage;
}

}  // namespace

std::unique_ptr<CLI::App> MakeVerbApp(std::string_view verb, std::string_view description,
                                      std::string_view example) {
  auto app = std::make_unique<CLI::App>(std::string(description), "kestrel " + std::string(verb));
  if (!example.empty()) app->footer("Example:\n  " + std::string(example));
  return app;
}

CLI::App* AddSubVerb(CLI::App& app, std::string_view name, std::string_view description,
                     std::string_view example) {
  CLI::App* sub = app.add_subcommand(std::string(name), std::string(description));
  if (!example.empty()) sub->footer("Example:\n  " + std::string(example));
  return sub;
}

std::optional<std::string> FindUsageProblem(CLI::App& app, const std::vector<std::string>& args) {
  // CLI11 takes a vector of arguments last-first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::Success&) {
    throw;
  } catch (const CLI::ParseError& e) {
    return Describe(e, app, ParsedChain(app));
  }
  return RepeatedOption(ParsedChain(app));
}

std::optional<int> ParseVerb(CLI::App& app, const std::vector<std::string>& args) {
  std::optional<std::string> problem;
  try {
    problem = FindUsageProblem(app, args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help() << std::flush;
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All) << std::flush;
    return kExitOk;
  }
  if (problem) return PrintUsageError(ParsedChain(app), *problem);
  return std::nullopt;
}

int UsageError(const CLI::App& app, std::string_view what) {
  return PrintUsageError(ParsedChain(app), what);
}

}  // namespace kestrel::cli
