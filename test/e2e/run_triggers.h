// What the `kestrel run` end-to-end tests trigger for real, and the rules
// file they write: a directory of their own, rules that match only what
// the test does (its marker files, its exec argument, its listener's port).
#ifndef KESTREL_TEST_E2E_RUN_TRIGGERS_H_
#define KESTREL_TEST_E2E_RUN_TRIGGERS_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "pin_dir_guard.h"

namespace kestrel::e2e {

// A temporary directory removed with whatever the test left in it.
class RunTempDir {
 public:
  RunTempDir() {
    char templ[] = "/tmp/kestrel-run-e2e-XXXXXX";
    path_ = mkdtemp(templ);
  }
  // Whatever the test made in it goes too, directories included.
  ~RunTempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Writes `text` to `path` whole: a new file renamed over the old one, as
// editors save, so a watcher never sees half a file.
inline void WriteWhole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << text;
  ASSERT_EQ(rename(tmp.c_str(), path.c_str()), 0);
}

// Opens (creating) `path` with openat and closes it.
inline void OpenFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0) << path;
  close(fd);
}

// Runs `/bin/true ARG` and waits for it.
inline void ExecTrue(const std::string& arg) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/true", "true", arg.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// A TCP listener on 127.0.0.1 at a port the kernel picks.
class LoopbackListener {
 public:
  LoopbackListener() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(fd_, 16);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~LoopbackListener() { close(fd_); }
  uint16_t port() const { return port_; }

  // Connects to the listener; returns the client's own port.
  uint16_t Connect() const {
    const int c = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port_);
    EXPECT_EQ(connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    socklen_t len = sizeof addr;
    getsockname(c, reinterpret_cast<sockaddr*>(&addr), &len);
    close(c);
    return ntohs(addr.sin_port);
  }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
};

inline std::string OpenRule(const std::string& dir) {
  return absl::StrCat(
      "- rule: Open marker\n"
      "  desc: the test opened one of its marker files\n"
      "  condition: evt.type = openat and fd.name startswith \"",
      dir,
      "/mark\"\n"
      "  output: opened %fd.name by %proc.name (pid %proc.pid)\n"
      "  priority: WARNING\n"
      "  tags: [test, files]\n");
}

inline std::string ExecRule(const std::string& mark) {
  return absl::StrCat(
      "- rule: Exec marker\n"
      "  desc: the test ran /bin/true with its mark\n"
      "  condition: evt.type = execve and proc.cmdline = \"true ",
      mark,
      "\"\n"
      "  output: ran %proc.cmdline from %proc.exepath\n"
      "  priority: NOTICE\n"
      "  tags: [test, process]\n");
}

inline std::string ConnectRule(uint16_t port) {
  return absl::StrCat(
      "- rule: Connect marker\n"
      "  desc: the test connected to its listener\n"
      "  condition: evt.type = connect and fd.sport = ",
      port,
      "\n"
      "  output: connection %fd.name\n"
      "  priority: CRITICAL\n"
      "  tags: [test, network]\n");
}

// A connection to the listener by the name its address has: localhost
// resolves (through /etc/hosts) to 127.0.0.1.
inline std::string NamedConnectRule(uint16_t port) {
  return absl::StrCat(
      "- rule: Connect by name\n"
      "  desc: the test connected to a name the rules resolve\n"
      "  condition: evt.type = connect and fd.sip.name = localhost and fd.sport = ",
      port,
      "\n"
      "  output: connection to %fd.sip.name\n"
      "  priority: INFORMATIONAL\n"
      "  tags: [test, network]\n");
}

// A loopback TCP port nothing listens on now.
inline uint16_t FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// How many of `lines` contain `needle`.
inline size_t CountLinesWith(const std::vector<std::string>& lines, const std::string& needle) {
  size_t n = 0;
  for (const std::string& l : lines) n += l.find(needle) != std::string::npos ? 1 : 0;
  return n;
}

// Opens fresh marker files until `run` prints an alert for one: from then
// on the probe is attached and the rules are evaluated.
inline bool WaitUntilAlerting(KestrelProcess& run, const RunTempDir& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (int i = 0; std::chrono::steady_clock::now() < deadline; ++i) {
    const std::string path = dir.File(absl::StrCat("mark-ready-", i));
    OpenFile(path);
    if (run.WaitForLine(path, std::chrono::milliseconds(300))) return true;
  }
  return false;
}

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_RUN_TRIGGERS_H_
