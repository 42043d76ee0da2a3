// `kestrel fields`: every field a condition can name, with its type and
// what it holds, like `falco --list`.
#ifndef KESTREL_CLI_FIELDS_COMMAND_H_
#define KESTREL_CLI_FIELDS_COMMAND_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace kestrel::cli {

struct FieldsOptions {
  bool json = false;
  bool absent = false;  // Falco's fields Kestrel leaves out, with why
};

inline constexpr char kFieldsDescription[] =
    "list the fields conditions can name, with their types";

void DefineFieldsOptions(CLI::App& app, FieldsOptions& options);

// The listing as `kestrel fields` prints it.
std::string FormatFieldList(bool json);

// The listing as `kestrel fields --absent` prints it.
std::string FormatAbsentFieldList(bool json);

int RunFields(const std::vector<std::string>& args);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_FIELDS_COMMAND_H_
