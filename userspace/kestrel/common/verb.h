// One `kestrel` verb as the entry point knows it: main.cpp keeps a table of
// these that dispatch, `kestrel --help`, `kestrel help VERB` and the
// completion script all read, so a verb is added in one place.
#ifndef KESTREL_CLI_VERB_H_
#define KESTREL_CLI_VERB_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace kestrel::cli {

struct Verb {
  const char* name;
  const char* description;  // one line, for `kestrel --help`
  int (*run)(const std::vector<std::string>& args);
  // Defines the verb's flags and sub-verbs on an unparsed app, for the
  // completion script; null for a verb still parsed by hand (its completion
  // then offers --help only).
  void (*define)(CLI::App& app);
};

// A `Verb::define` from a verb's `DefineXOptions`.
template <typename Options, void (*Define)(CLI::App&, Options&)>
void DefineForListing(CLI::App& app) {
  // Listing reads the definitions and never parses, so nothing is ever
  // stored here; static because the app keeps pointers into it.
  static Options unused;
  Define(app, unused);
}

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_VERB_H_
