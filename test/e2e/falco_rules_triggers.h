// What the suites that run Falco's public rules files under `kestrel run`
// share: the programs and syscalls they trigger as a host would, one
// `kestrel run` per suite, and the check of an alert's output fields
// against what Falco fills on a host. The rules files are not part of
// Kestrel: the suites read them from the folder KESTREL_FALCO_RULES_DIR
// names and pass without checking when it is unset.
#ifndef KESTREL_TEST_E2E_FALCO_RULES_TRIGGERS_H_
#define KESTREL_TEST_E2E_FALCO_RULES_TRIGGERS_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "../support/json_value.h"
#include "../support/strict_json.h"
#include "kestrel_process.h"

namespace kestrel::e2e::falco {

namespace fs = std::filesystem;
using kestrel::testing::JsonValue;
using std::chrono::milliseconds;
using std::chrono::seconds;

inline const char* RulesDir() { return std::getenv("KESTREL_FALCO_RULES_DIR"); }

// A name of this test run's own, so its alerts are told apart from the host's.
inline std::string Unique(const std::string& tag) {
  return "kestrel-falco-" + tag + "-" + std::to_string(getpid());
}

// The command name (comm) of `pid`, as the kernel keeps it.
inline std::string Comm(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string comm;
  std::getline(in, comm);
  return comm;
}

inline pid_t ParentOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return 0;
  return std::atoi(stat.c_str() + close_paren + 4);  // ") S <ppid>"
}

// The comms of this process and its ancestors up to init: [0] is this test.
inline std::vector<std::string> OwnAncestry() {
  std::vector<std::string> names;
  for (pid_t pid = getpid(); pid > 0; pid = ParentOf(pid)) names.push_back(Comm(pid));
  return names;
}

// Execs `argv` (argv[0] is the name the program sees, `path` the file) as a
// child of this test, stdio on /dev/null, and waits for it. `before_exec`
// runs in the child (e.g. to drop privileges).
inline int Exec(const std::string& path, const std::vector<std::string>& argv,
                const std::function<void()>& before_exec = {}) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    if (before_exec) before_exec();
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(path.c_str(), args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Exec() of a session leader whose controlling terminal, and stdio, is a
// new pseudo-terminal, as a shell typed into has. `before_exec` runs in the
// child once the terminal is set.
inline int ExecOnNewTerminal(const std::string& path, const std::vector<std::string>& argv,
                             const std::function<void()>& before_exec = {}) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0) {
    ADD_FAILURE() << "posix_openpt failed";
    return -1;
  }
  grantpt(master);
  unlockpt(master);
  const std::string slave = ptsname(master);
  const int status = Exec(path, argv, [&] {
    setsid();
    const int tty = open(slave.c_str(), O_RDWR);  // becomes the controlling terminal
    dup2(tty, 0);
    dup2(tty, 1);
    dup2(tty, 2);
    if (before_exec) before_exec();
  });
  close(master);
  return status;
}

// Runs `body` in a forked child of this test and returns its exit status.
inline int InChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A folder of this run's own, world-readable (a system user execs from it).
class TempDir {
 public:
  TempDir() {
    char templ[] = "/tmp/kestrel-falco-XXXXXX";
    path_ = mkdtemp(templ);
    chmod(path_.c_str(), 0755);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string Copy(const std::string& from, const std::string& name) const {
    const std::string to = path_ + "/" + name;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    chmod(to.c_str(), 0755);
    return to;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// This host's first IPv4 address that Falco's `outbound` macro counts as
// leaving the host: not loopback, not in RFC 1918's private ranges.
inline std::optional<in_addr> PublicIpv4() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return std::nullopt;
  std::optional<in_addr> found;
  for (ifaddrs* i = list; i != nullptr && !found; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    const in_addr a = reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr;
    const uint32_t h = ntohl(a.s_addr);
    const bool loopback = (h >> 24) == 127;
    const bool private_net =
        (h >> 24) == 10 || (h >> 20) == ((172u << 4) | 1) || (h >> 16) == ((192u << 8) | 168);
    if (!loopback && !private_net) found = a;
  }
  freeifaddrs(list);
  return found;
}

// A TCP listener on `addr`:`port`.
class Listener {
 public:
  Listener(in_addr addr, uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr = addr;
    sa.sin_port = htons(port);
    ok_ = bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) == 0 && listen(fd_, 64) == 0;
    socklen_t len = sizeof(sa);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len);
    port_ = ntohs(sa.sin_port);
  }
  ~Listener() { close(fd_); }
  bool ok() const { return ok_; }
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  bool ok_ = false;
  uint16_t port_ = 0;
};

inline std::string Field(const std::string& name, const std::string& value) {
  return "\"" + name + "\":\"" + value + "\"";
}

// What an alert's output_fields must hold: exact values for some fields,
// and the fields Falco leaves <NA> on a host for this trigger. Every other
// field of the output must be filled.
struct Expected {
  std::map<std::string, std::string> values;
  std::set<std::string> na;
  std::set<std::string> unchecked;  // where Falco's value is not settled here
};

class FalcoRulesFixture : public ::testing::Test {
 protected:
  // Starts `kestrel run ARGS...` for the suite and waits until it alerts.
  static void StartRun(const std::vector<std::string>& args) {
    if (RulesDir() == nullptr) return;
    ancestry_ = OwnAncestry();
    ready_ = false;
    run_ = std::make_unique<KestrelProcess>(args);
    // A symlink over /etc/shadow alerts on the attempt (a stable rule), so a
    // failing one is a harmless canary: once it alerts, the probe and the
    // rules are live.
    const std::string canary = "/nonexistent-kestrel-dir/" + Unique("ready");
    const auto deadline = std::chrono::steady_clock::now() + seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      (void)!symlink("/etc/shadow", canary.c_str());
      if (run_->WaitForLine(canary, milliseconds(500))) {
        ready_ = true;
        break;
      }
    }
  }

  static void StopRun() {
    if (!run_) return;
    run_->Signal(SIGINT);
    const CliResult r = run_->Wait(seconds(30));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    run_.reset();
  }

  void SetUp() override {
    if (RulesDir() == nullptr) {
      std::printf("KESTREL_FALCO_RULES_DIR is not set: Falco's rules not triggered\n");
      return;
    }
    ASSERT_TRUE(ready_) << "kestrel run never raised the canary alert";
  }

  static bool Enabled() { return RulesDir() != nullptr; }

  // The comm of this test's ancestor `n` generations up (0: the test itself),
  // or nullopt past init.
  static std::optional<std::string> Ancestor(size_t n) {
    if (n >= ancestry_.size()) return std::nullopt;
    return ancestry_[n];
  }

  // Waits for an alert of `rule` whose line holds every one of `needles`,
  // running `trigger` again every `every`; returns the parsed alert.
  std::optional<JsonValue> ExpectAlert(const std::string& rule,
                                       const std::vector<std::string>& needles,
                                       const std::function<void()>& trigger,
                                       milliseconds every = seconds(1)) {
    const std::string rule_key = Field("rule", rule);
    const auto matches = [&](const std::string& line) {
      if (line.find(rule_key) == std::string::npos) return false;
      for (const std::string& n : needles) {
        if (line.find(n) == std::string::npos) return false;
      }
      return true;
    };
    const auto deadline = std::chrono::steady_clock::now() + seconds(30);
    size_t seen = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      trigger();
      const auto until = std::chrono::steady_clock::now() + every;
      while (std::chrono::steady_clock::now() < until) {
        run_->ReadLine(milliseconds(100));
        const std::vector<std::string>& lines = run_->lines();
        for (; seen < lines.size(); ++seen) {
          if (!matches(lines[seen])) continue;
          EXPECT_EQ(kestrel::testing::StrictJson::Check(lines[seen]), "") << lines[seen];
          auto alert = JsonValue::Parse(lines[seen]);
          EXPECT_TRUE(alert.has_value()) << lines[seen];
          return alert;
        }
      }
    }
    ADD_FAILURE() << "no alert of rule '" << rule << "' with " << ::testing::PrintToString(needles);
    return std::nullopt;
  }

  // Checks every output field of `alert`: the exact values `expected` names,
  // <NA> (null) where Falco has none on a host, filled everywhere else.
  static void CheckFields(const std::optional<JsonValue>& alert, const Expected& expected) {
    if (!alert) return;
    const JsonValue* fields = alert->Find("output_fields");
    ASSERT_NE(fields, nullptr);
    for (const auto& [name, value] : fields->members) {
      const bool missing = value.kind == JsonValue::Kind::kNull ||
                           (value.kind == JsonValue::Kind::kString && value.text == "<NA>");
      if (expected.unchecked.count(name)) continue;
      if (expected.na.count(name)) {
        EXPECT_TRUE(missing) << name << " should be <NA> as in Falco, is " << value.text;
      } else {
        EXPECT_FALSE(missing) << name << " is <NA>; Falco fills it";
      }
      const auto it = expected.values.find(name);
      if (it != expected.values.end()) {
        EXPECT_EQ(value.text, it->second) << name;
      }
    }
    for (const auto& [name, value] : expected.values) {
      EXPECT_NE(fields->Find(name), nullptr) << "no output field " << name;
    }
  }

  // aname[from..to] of a program this test started: aname[test_at] is this
  // test (1 for a program it exec'd, 2 for one a child of it exec'd).
  static void ExpectAncestors(Expected& e, int from, int to, int test_at = 1) {
    for (int n = from; n <= to; ++n) {
      const std::string key = "proc.aname[" + std::to_string(n) + "]";
      if (const auto name = Ancestor(static_cast<size_t>(n - test_at))) {
        e.values[key] = *name;
      } else {
        e.na.insert(key);
      }
    }
  }

  inline static std::unique_ptr<KestrelProcess> run_;
  inline static bool ready_ = false;
  inline static std::vector<std::string> ancestry_;
};

// The fields every Falco rule's output ends with, for a program this test
// exec'd as root, with no login session (loginuid unset) and no terminal.
inline Expected Common(const std::string& evt_type, const std::string& name,
                       const std::string& exepath) {
  Expected e;
  e.values = {{"evt.type", evt_type},  {"user.name", "root"},         {"user.uid", "0"},
              {"user.loginuid", "-1"}, {"proc.name", name},           {"proc.exepath", exepath},
              {"proc.tty", "0"},       {"proc.pname", Comm(getpid())}};
  return e;
}

}  // namespace kestrel::e2e::falco

#endif  // KESTREL_TEST_E2E_FALCO_RULES_TRIGGERS_H_
