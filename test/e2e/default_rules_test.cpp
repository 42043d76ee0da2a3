// Kestrel's default rules (rules/kestrel_rules.yaml), each triggered for real
// while `kestrel run` watches with its defaults, and its alert checked in
// JSON: the rule, its priority and the output fields that name the trigger.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../support/strict_json.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A path of this test run's own, so its alerts are told apart from the host's.
std::string Unique(const std::string& tag) {
  return "kestrel-e2e-" + tag + "-" + std::to_string(getpid());
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Runs `sh -c SCRIPT` and returns its exit status.
int Shell(const std::string& script) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    execl("/bin/sh", "sh", "-c", script.c_str(), nullptr);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Runs `body` in a child process and returns its exit status.
int InChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A loopback TCP listener on `port` (0: any free port).
class Listener {
 public:
  explicit Listener(uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    ok_ = bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 && listen(fd_, 8) == 0;
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~Listener() { close(fd_); }
  bool ok() const { return ok_; }
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  bool ok_ = false;
  uint16_t port_ = 0;
};

// Connects to a loopback port and closes; returns connect's result.
int ConnectLoopback(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  const int rc = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  close(fd);
  return rc;
}

std::string Field(const std::string& name, const std::string& value) {
  return "\"" + name + "\":\"" + value + "\"";
}

class DefaultRulesTest : public ::testing::Test {
 protected:
  // One `kestrel run` for the suite: loading the probe once keeps it short.
  static void SetUpTestSuite() {
    run_ = std::make_unique<KestrelProcess>(std::vector<std::string>{
        "run", "-o", "json_output=true", "-o", "json_include_tags_property=true"});
    // The symlink rule fires on attempts, so a failing symlinkat is a
    // harmless canary: once it alerts, the probe is attached and the rules
    // are live.
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

  static void TearDownTestSuite() {
    run_->Signal(SIGINT);
    const CliResult r = run_->Wait(seconds(30));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    run_.reset();
  }

  void SetUp() override { ASSERT_TRUE(ready_) << "kestrel run never raised the canary alert"; }

  // Waits for an alert of `rule` whose line holds every one of `needles`,
  // retriggering with `trigger` every second; returns the line.
  std::optional<std::string> ExpectAlert(const std::string& rule,
                                         const std::vector<std::string>& needles,
                                         const std::function<void()>& trigger) {
    const std::string rule_key = Field("rule", rule);
    const auto matches = [&](const std::string& line) {
      if (line.find(rule_key) == std::string::npos) return false;
      for (const std::string& n : needles) {
        if (line.find(n) == std::string::npos) return false;
      }
      return true;
    };
    const auto deadline = std::chrono::steady_clock::now() + seconds(20);
    size_t seen = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      trigger();
      const auto until = std::chrono::steady_clock::now() + seconds(1);
      while (std::chrono::steady_clock::now() < until) {
        run_->ReadLine(milliseconds(100));
        const std::vector<std::string>& lines = run_->lines();
        for (; seen < lines.size(); ++seen) {
          if (!matches(lines[seen])) continue;
          EXPECT_EQ(kestrel::testing::StrictJson::Check(lines[seen]), "") << lines[seen];
          return lines[seen];
        }
      }
    }
    ADD_FAILURE() << "no alert of rule '" << rule << "' with " << ::testing::PrintToString(needles);
    return std::nullopt;
  }

  static std::unique_ptr<KestrelProcess> run_;
  static bool ready_;
};

std::unique_ptr<KestrelProcess> DefaultRulesTest::run_;
bool DefaultRulesTest::ready_ = false;

TEST_F(DefaultRulesTest, SecretFileRead) {
  const auto line = ExpectAlert(
      "Secret file read by an unexpected program",
      {Field("fd.name", "/etc/shadow"), Field("proc.name", "cat"), Field("priority", "Warning")},
      [] { Shell("cat /etc/shadow"); });
  if (line) {
    EXPECT_NE(line->find("\"credentials\""), std::string::npos) << *line;
  }
}

TEST_F(DefaultRulesTest, WriteBelowBinaryDirectory) {
  const std::string path = "/usr/local/bin/" + Unique("bin");
  ExpectAlert("Write below a binary directory",
              {Field("fd.name", path), Field("proc.name", "sh"), Field("priority", "Error")},
              [&] { Shell("echo x > " + path); });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, WriteBelowEtc) {
  const std::string path = "/etc/" + Unique("etc");
  ExpectAlert("Write below /etc", {Field("fd.name", path), Field("proc.name", "sh")},
              [&] { Shell("echo x > " + path); });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, WriteBelowRootHome) {
  const std::string path = "/root/" + Unique("root");
  ExpectAlert("Write below root's home", {Field("fd.name", path)},
              [&] { Shell("echo x > " + path); });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, SymlinkToSensitiveFile) {
  const std::string link = "/tmp/" + Unique("link");
  ExpectAlert("Symlink to a sensitive file",
              {Field("evt.arg.target", "/etc/shadow"), Field("evt.arg.linkpath", link)}, [&] {
                fs::remove(link);
                (void)!symlink("/etc/shadow", link.c_str());
              });
  fs::remove(link);
}

TEST_F(DefaultRulesTest, HardlinkToSensitiveFile) {
  // The attempt is what the rule reports: a link into a missing directory
  // fails, so the test never leaves a second name for /etc/shadow behind.
  const std::string hard = "/nonexistent-kestrel-dir/" + Unique("hard");
  ExpectAlert("Hardlink to a sensitive file",
              {Field("evt.arg.oldpath", "/etc/shadow"), Field("evt.res", "ENOENT")},
              [&] { (void)!link("/etc/shadow", hard.c_str()); });
}

TEST_F(DefaultRulesTest, SetuidBitSet) {
  const std::string path = "/tmp/" + Unique("suid");
  WriteFile(path, "x");
  ExpectAlert("Setuid or setgid bit set",
              {Field("fs.path.name", path), Field("proc.name", "chmod")},
              [&] { Shell("chmod u+s " + path); });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, ScheduledTaskWritten) {
  const bool made_dir = fs::create_directory("/etc/cron.d");
  const std::string path = "/etc/cron.d/" + Unique("cron");
  ExpectAlert("Scheduled task written", {Field("fd.name", path), Field("proc.name", "sh")},
              [&] { Shell("echo '# kestrel test' > " + path); });
  fs::remove(path);
  if (made_dir) fs::remove("/etc/cron.d");
}

TEST_F(DefaultRulesTest, SshAuthorizedKeysWritten) {
  const std::string dir = "/tmp/" + Unique("ssh") + "/.ssh";
  fs::create_directories(dir);
  const std::string path = dir + "/authorized_keys";
  ExpectAlert("SSH authorized keys written", {Field("fd.name", path)},
              [&] { Shell("echo 'ssh-ed25519 AAAA test' >> " + path); });
  fs::remove_all(fs::path(dir).parent_path());
}

TEST_F(DefaultRulesTest, LogFileCleared) {
  const std::string path = "/var/log/" + Unique("log") + ".log";
  WriteFile(path, "line\n");
  ExpectAlert("Log file cleared", {Field("fs.path.name", path), Field("proc.name", "truncate")},
              [&] { Shell("truncate -s 0 " + path); });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, ShellHistoryDeleted) {
  const std::string dir = "/tmp/" + Unique("hist");
  fs::create_directories(dir);
  const std::string path = dir + "/.bash_history";
  ExpectAlert("Shell history deleted", {Field("fs.path.name", path)}, [&] {
    WriteFile(path, "ls\n");
    unlink(path.c_str());
  });
  fs::remove_all(dir);
}

TEST_F(DefaultRulesTest, ShellSpawnedByServer) {
  // A program named nginx (a shell under that name) running a shell: the
  // kernel names a process after the path it was executed by.
  const std::string dir = "/tmp/" + Unique("srv");
  fs::create_directories(dir);
  fs::create_symlink("/bin/dash", dir + "/nginx");
  ExpectAlert("Shell spawned by a server", {Field("proc.name", "sh"), Field("proc.pname", "nginx")},
              [&] { Shell(dir + "/nginx -c 'sh -c true; true'"); });
  fs::remove_all(dir);
}

TEST_F(DefaultRulesTest, NetworkToolLaunched) {
  const std::string dir = "/tmp/" + Unique("tool");
  fs::create_directories(dir);
  fs::create_symlink("/bin/true", dir + "/ncat");
  ExpectAlert("Network tool launched", {Field("proc.name", "ncat")},
              [&] { Shell(dir + "/ncat -l 4444"); });
  fs::remove_all(dir);
}

TEST_F(DefaultRulesTest, StandardStreamRedirectedToSocket) {
  Listener listener(0);
  ASSERT_TRUE(listener.ok());
  const std::string port = std::to_string(listener.port());
  ExpectAlert("Standard stream redirected to a network socket",
              {Field("proc.name", "bash"), Field("priority", "Critical")},
              [&] { Shell("bash -c 'exec 1<>/dev/tcp/127.0.0.1/" + port + "; echo hi'"); });
}

TEST_F(DefaultRulesTest, ProgramRunFromDevShm) {
  const std::string path = "/dev/shm/" + Unique("shm");
  fs::copy_file("/bin/true", path);
  chmod(path.c_str(), 0755);
  ExpectAlert("Program run from /dev/shm", {Field("proc.exepath", path)}, [&] { Shell(path); });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, FilelessProgramRunFromMemfd) {
  ExpectAlert("Fileless program run from memfd", {Field("priority", "Critical")}, [] {
    InChild([] {
      const int mem = memfd_create("kestrel-e2e", MFD_CLOEXEC);
      const int exe = open("/bin/true", O_RDONLY | O_CLOEXEC);
      struct stat st {};
      fstat(exe, &st);
      if (sendfile(mem, exe, nullptr, st.st_size) != st.st_size) return 1;
      char* const argv[] = {const_cast<char*>("memfd-true"), nullptr};
      char* const envp[] = {nullptr};
      fexecve(mem, argv, envp);
      return 127;
    });
  });
}

TEST_F(DefaultRulesTest, CryptoMinerPoolConnection) {
  Listener pool(3333);
  ASSERT_TRUE(pool.ok()) << "port 3333 is taken on this machine";
  ExpectAlert("Crypto-miner pool connection", {"port=3333"}, [] { ConnectLoopback(3333); });
}

TEST_F(DefaultRulesTest, CryptoMinerLaunched) {
  ExpectAlert("Crypto-miner launched", {"stratum+tcp://pool.invalid:3333"},
              [] { Shell("true --url stratum+tcp://pool.invalid:3333"); });
}

TEST_F(DefaultRulesTest, KernelModuleLoadAttempted) {
  // Not a module: the kernel refuses it, and the attempt is what is reported.
  const std::string path = "/tmp/" + Unique("mod") + ".ko";
  WriteFile(path, "not an ELF module");
  ExpectAlert("Kernel module load attempted", {Field("evt.type", "finit_module")}, [&] {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    syscall(SYS_finit_module, fd, "", 0);
    close(fd);
  });
  fs::remove(path);
}

TEST_F(DefaultRulesTest, ProcessAttachedWithPtrace) {
  ExpectAlert("Process attached with ptrace", {Field("evt.arg.request", "PTRACE_ATTACH")}, [] {
    const pid_t target = fork();
    if (target == 0) {
      pause();
      _exit(0);
    }
    if (ptrace(PTRACE_ATTACH, target, nullptr, nullptr) == 0) {
      waitpid(target, nullptr, 0);
      ptrace(PTRACE_DETACH, target, nullptr, nullptr);
    }
    kill(target, SIGKILL);
    waitpid(target, nullptr, 0);
  });
}

TEST_F(DefaultRulesTest, ProcessAskedToBeTraced) {
  ExpectAlert("Process asked to be traced", {Field("priority", "Notice")}, [] {
    InChild([] { return ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? 0 : 1; });
  });
}

TEST_F(DefaultRulesTest, BpfProgramLoaded) {
  ExpectAlert("BPF program loaded by an unexpected program", {Field("priority", "Warning")}, [] {
    // r0 = 0; exit: the smallest socket filter the verifier accepts.
    const bpf_insn insns[] = {
        {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .src_reg = 0, .off = 0, .imm = 0},
        {.code = BPF_JMP | BPF_EXIT, .dst_reg = 0, .src_reg = 0, .off = 0, .imm = 0},
    };
    union bpf_attr attr {};
    attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
    attr.insns = reinterpret_cast<uint64_t>(insns);
    attr.insn_cnt = 2;
    attr.license = reinterpret_cast<uint64_t>("GPL");
    const long fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
    if (fd >= 0) close(static_cast<int>(fd));
  });
}

}  // namespace
}  // namespace kestrel::e2e
