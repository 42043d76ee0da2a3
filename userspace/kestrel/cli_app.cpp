#include "cli_app.h"

#include <cstdio>
#include <iostream>

namespace kestrel::cli {

std::unique_ptr<CLI::App> MakeVerbApp(std::string_view verb, std::string_view description,
                                      std::string_view example) {
  auto app = std::make_unique<CLI::App>(std::string(description), "kestrel " + std::string(verb));
  if (!example.empty()) app->footer("Example:\n  " + std::string(example));
  return app;
}

std::optional<int> ParseVerb(CLI::App& app, const std::vector<std::string>& args) {
  // CLI11 takes a vector of arguments last-first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help() << std::flush;
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All) << std::flush;
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s\nRun '%s --help' for the options.\n", app.get_name().c_str(),
                 e.what(), app.get_name().c_str());
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace kestrel::cli
