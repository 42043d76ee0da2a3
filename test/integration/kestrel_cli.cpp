#include "kestrel_cli.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

namespace kestrel::testing {
namespace {

std::string ReadAll(int fd) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n > 0) {
      text.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fd);
  return text;
}

}  // namespace

CliResult RunKestrel(const std::vector<std::string>& args) {
  CliResult result;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << errno;
    return result;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << errno;
    close(out[0]);
    close(out[1]);
    return result;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(KESTREL_CLI_PATH)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(KESTREL_CLI_PATH, argv.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  // Both pipes drain at once, so a child filling one while the other is
  // read never blocks.
  std::thread err_reader([&] { result.err = ReadAll(err[0]); });
  result.out = ReadAll(out[0]);
  err_reader.join();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace kestrel::testing
