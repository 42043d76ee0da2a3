// kestrel: the command-line front end. Each subcommand lives in its own file.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_command.h"
#include "capture_command.h"
#include "dump_command.h"
#include "recorder_command.h"
#include "settings_command.h"
#include "stats_command.h"
#include "syscalls_command.h"

namespace {

constexpr char kUsage[] =
    "usage: kestrel <command> [options]\n"
    "commands:\n"
    "  capture    print live syscall events (kestrel capture --help)\n"
    "  stats      load the probe for a while and print rings and counters\n"
    "  syscalls   list the syscalls Kestrel knows, or toggle them in a running capture\n"
    "  settings   read or change the settings of a running capture\n"
    "  recorder   start or stop a flight recorder (kestrel recorder --help)\n"
    "  dump       print a flight recorder's newest records (kestrel dump --help)\n"
    "  bench      measure the probe's overhead and throughput (kestrel bench --help)\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string_view command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "capture") return kestrel::cli::RunCapture(args);
  if (command == "stats") return kestrel::cli::RunStats(args);
  if (command == "syscalls") return kestrel::cli::RunSyscalls(args);
  if (command == "recorder") return kestrel::cli::RunRecorder(args);
  if (command == "dump") return kestrel::cli::RunDump(args);
  if (command == "settings") return kestrel::cli::RunSettings(args);
  if (command == "bench") return kestrel::cli::RunBench(args);
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::fprintf(stderr, "kestrel: unknown command \"%s\"\n%s", argv[1], kUsage);
  return 2;
}
