// Parses a verb's arguments through its DefineXOptions as `kestrel VERB`
// would, returning the options or the usage message it would print.
#ifndef KESTREL_TEST_UNIT_VERB_PARSE_H_
#define KESTREL_TEST_UNIT_VERB_PARSE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kestrel/common/cli_app.h"

namespace kestrel::cli {

template <typename Options, typename Define>
absl::StatusOr<Options> ParseVerbArgs(Define define, const std::vector<std::string>& args) {
  CLI::App app;
  Options options;
  define(app, options);
  if (std::optional<std::string> problem = FindUsageProblem(app, args)) {
    return absl::InvalidArgumentError(*problem);
  }
  return options;
}

}  // namespace kestrel::cli

#endif  // KESTREL_TEST_UNIT_VERB_PARSE_H_
