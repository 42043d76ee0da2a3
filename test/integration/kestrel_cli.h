// The built `kestrel` binary run as a user runs it, for the tests whose
// subject is control from another process (pinned probes, the recorder).
#ifndef KESTREL_TEST_INTEGRATION_KESTREL_CLI_H_
#define KESTREL_TEST_INTEGRATION_KESTREL_CLI_H_

#include <string>
#include <vector>

namespace kestrel::testing {

struct CliResult {
  int exit_code = -1;  // -1 when a signal ended it
  std::string out;
  std::string err;
};

// Runs `kestrel ARGS...` in a new process to completion and collects its
// stdout and stderr.
CliResult RunKestrel(const std::vector<std::string>& args);

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_KESTREL_CLI_H_
