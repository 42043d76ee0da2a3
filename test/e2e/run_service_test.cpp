// `kestrel run` under a service manager: with $NOTIFY_SOCKET set (as a
// Type=notify unit has it), READY=1 arrives once the probe is attached,
// READY=1 again after a SIGHUP reload, and STOPPING=1 at SIGTERM; the
// unit the package installs passes `systemd-analyze verify`.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

// The next datagram on `fd` within `ms`, or "" when none came.
std::string NextNotification(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  if (poll(&p, 1, ms) != 1) return "";
  char buf[256];
  const ssize_t n = recv(fd, buf, sizeof(buf), 0);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

TEST(RunServiceTest, TellsTheServiceManagerWhenReadyReloadedAndStopping) {
  RunTempDir dir;
  const std::string socket_path = dir.File("notify");
  const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, socket_path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const std::string rules = dir.File("rules.yaml");
  WriteWhole(rules, R"yaml(- rule: Service test
  desc: never fires
  condition: evt.type = openat and fd.name = /nonexistent/kestrel-service-test
  output: "%fd.name"
  priority: INFO
)yaml");

  setenv("NOTIFY_SOCKET", socket_path.c_str(), 1);
  KestrelProcess run({"run", "-r", rules, "--no-pin"});
  unsetenv("NOTIFY_SOCKET");
  EXPECT_EQ(NextNotification(fd, 90'000), "READY=1");
  // Ready means attached: the line saying so came before.
  EXPECT_TRUE(run.WaitForStderr("attached in", 1, std::chrono::seconds(1)));
  run.Signal(SIGHUP);
  EXPECT_EQ(NextNotification(fd, 10'000), "READY=1");
  run.Signal(SIGTERM);
  EXPECT_EQ(NextNotification(fd, 10'000), "STOPPING=1");
  const CliResult r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  close(fd);
}

TEST(RunServiceTest, ThePackagesUnitIsValid) {
  if (system("command -v systemd-analyze >/dev/null 2>&1") != 0) {
    std::printf("no systemd-analyze here: the unit is not verified\n");
    return;
  }
  RunTempDir dir;
  // The unit names /usr/bin/kestrel, which exists only once the package
  // is installed: verified against a copy pointing at this build.
  const std::string unit = dir.File("kestrel.service");
  const std::string sed = absl::StrCat("sed 's|/usr/bin/kestrel|", KESTREL_CLI_PATH, "|' ",
                                       KESTREL_SOURCE_DIR, "/packaging/kestrel.service > ", unit);
  ASSERT_EQ(system(sed.c_str()), 0);
  const std::string verify =
      absl::StrCat("systemd-analyze verify --man=no ", unit, " > ", dir.File("out"), " 2>&1");
  const int rc = system(verify.c_str());
  std::string out;
  if (FILE* f = fopen(dir.File("out").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
    fclose(f);
  }
  EXPECT_EQ(rc, 0) << out;
}

}  // namespace
}  // namespace kestrel::e2e
