// kestrel: the command-line front end. Each subcommand lives in its own file.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_command.h"
#include "capture_command.h"
#include "syscalls_command.h"

namespace {

constexpr char kUsage[] =
    "usage: kestrel <command> [options]\n"
    "commands:\n"
    "  capture    print live syscall events (kestrel capture --help)\n"
    "  syscalls   list the syscalls Kestrel knows\n"
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
  if (command == "syscalls") return kestrel::cli::RunSyscalls(args);
  if (command == "bench") return kestrel::cli::RunBench(args);
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::fprintf(stderr, "kestrel: unknown command \"%s\"\n%s", argv[1], kUsage);
  return 2;
}
