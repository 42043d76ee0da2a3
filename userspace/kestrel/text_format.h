// Pieces of event lines shared by every record printer.
#ifndef KESTREL_CLI_TEXT_FORMAT_H_
#define KESTREL_CLI_TEXT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace kestrel::cli {

// HH:MM:SS.nnnnnnnnn in local time.
void AppendWallTime(std::string& out, uint64_t wall_ns);

// `s` quoted and escaped for JSON.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace kestrel::cli

#endif  // KESTREL_CLI_TEXT_FORMAT_H_
