// Falco's public stable rules (falco_rules.yaml from falcosecurity/rules)
// fire under `kestrel run` for every rule whose trigger can happen on a host
// without a container runtime, with each %field of the rule's output filled
// as Falco fills it there. The file is not part of Kestrel: the suite reads
// it from the folder KESTREL_FALCO_RULES_DIR names and passes without
// checking when it is unset. Rules that need a container (container.id is
// "host" here) are not triggered.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
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
#include "absl/strings/str_format.h"
#include "falco_rules_triggers.h"
#include "kestrel_process.h"

namespace kestrel::e2e {
namespace {

using namespace kestrel::e2e::falco;  // the Falco suites' shared triggers and checks

// A cgroup named as Docker's systemd driver names a container's
// ("docker-<64 hex>.scope"), in the hierarchy the probe reports first (the
// v1 cpuset one on a hybrid host, else the unified one). There is no
// container runtime on the host: a process moved into this cgroup is what
// Falco, which derives container.id from the cgroup the same way, counts as
// a container without metadata.
class ContainerCgroup {
 public:
  ContainerCgroup() {
    const std::string full = absl::StrFormat("%012x", getpid()) + std::string(52, 'e');
    id_ = full.substr(0, 12);
    const bool v1_cpuset = fs::exists("/sys/fs/cgroup/cpuset/cpuset.cpus");
    const std::string root = v1_cpuset ? "/sys/fs/cgroup/cpuset" : "/sys/fs/cgroup";
    path_ = root + "/docker-" + full + ".scope";
    ok_ = mkdir(path_.c_str(), 0755) == 0 || errno == EEXIST;
    if (ok_ && v1_cpuset) {
      // A v1 cpuset takes no task before it has cpus and memory nodes.
      for (const char* knob : {"cpuset.cpus", "cpuset.mems"}) {
        std::ifstream in(root + "/" + knob);
        std::string value;
        std::getline(in, value);
        std::ofstream(path_ + "/" + knob) << value;
      }
    }
  }
  ~ContainerCgroup() { rmdir(path_.c_str()); }
  bool ok() const { return ok_; }
  const std::string& id() const { return id_; }
  // Moves the calling process in; call it in a child before it acts.
  bool Join() const {
    const int fd = open((path_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = write(fd, "0", 1) == 1;
    close(fd);
    return ok;
  }

 private:
  std::string id_;
  std::string path_;
  bool ok_ = false;
};

class FalcoRulesFireTest : public FalcoRulesFixture {
 protected:
  static void SetUpTestSuite() {
    StartRun({"run", "-r", std::string(RulesDir() ? RulesDir() : "") + "/falco_rules.yaml",
              "--no-pin", "-o", "json_output=true"});
  }
  static void TearDownTestSuite() { StopRun(); }
};

TEST_F(FalcoRulesFireTest, DirectoryTraversalMonitoredFileRead) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string raw = dir.path() + "/../../etc/passwd";
  auto alert =
      ExpectAlert("Directory traversal monitored file read", {Field("fd.nameraw", raw)}, [&] {
        Exec("/bin/cat", {"cat", raw});
      });
  Expected e = Common("openat", "cat", "/usr/bin/cat");
  e.values["fd.name"] = "/etc/passwd";
  e.values["proc.cmdline"] = "cat " + raw;
  ExpectAncestors(e, 2, 4);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, ReadSensitiveFileTrustedAfterStartup) {
  if (!Enabled()) return;
  // A server (a shell named nginx) that has run for more than 5 s.
  TempDir dir;
  const std::string nginx = dir.Copy("/bin/dash", "nginx");
  const std::string script = "sleep 5.5; exec 3< /etc/shadow; : " + Unique("trusted");
  auto alert = ExpectAlert(
      "Read sensitive file trusted after startup", {Field("proc.cmdline", "nginx -c " + script)},
      [&] {
        Exec(nginx, {"nginx", "-c", script});
      },
      seconds(2));
  Expected e = Common("openat", "nginx", nginx);
  e.values["fd.name"] = "/etc/shadow";
  ExpectAncestors(e, 2, 4);
  CheckFields(alert, e);
}

// A server that just started is not yet trusted to be past its startup
// (Falco's proc_is_new: proc.duration counts from the clone): only the
// untrusted-read rule fires.
TEST_F(FalcoRulesFireTest, ReadSensitiveFileByANewServerIsNotAfterStartup) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string nginx = dir.Copy("/bin/dash", "nginx");
  const std::string script = "exec 3< /etc/shadow; : " + Unique("new-server");
  const std::string cmdline = Field("proc.cmdline", "nginx -c " + script);
  const size_t first = run_->lines().size();
  auto alert = ExpectAlert("Read sensitive file untrusted", {cmdline}, [&] {
    Exec(nginx, {"nginx", "-c", script});
  });
  ASSERT_TRUE(alert.has_value());
  // Records of one process arrive in order: a second alert for the same open
  // would be here by now; give it a second more.
  const auto until = std::chrono::steady_clock::now() + seconds(1);
  while (std::chrono::steady_clock::now() < until) run_->ReadLine(milliseconds(100));
  for (size_t i = first; i < run_->lines().size(); ++i) {
    const std::string& line = run_->lines()[i];
    EXPECT_FALSE(line.find(Field("rule", "Read sensitive file trusted after startup")) !=
                     std::string::npos &&
                 line.find(cmdline) != std::string::npos)
        << line;
  }
}

TEST_F(FalcoRulesFireTest, ReadSensitiveFileUntrusted) {
  if (!Enabled()) return;
  const std::string other = "/nonexistent-" + Unique("untrusted");
  auto alert = ExpectAlert("Read sensitive file untrusted",
                           {Field("proc.cmdline", "cat /etc/shadow " + other)}, [&] {
                             Exec("/bin/cat", {"cat", "/etc/shadow", other});
                           });
  Expected e = Common("openat", "cat", "/usr/bin/cat");
  e.values["fd.name"] = "/etc/shadow";
  ExpectAncestors(e, 2, 4);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, RunShellUntrusted) {
  if (!Enabled()) return;
  // A shell spawned by a web server (a copy of dash named nginx).
  TempDir dir;
  const std::string nginx = dir.Copy("/bin/dash", "nginx");
  const std::string inner = "sh -c : " + Unique("shell");
  auto alert = ExpectAlert("Run shell untrusted", {Field("proc.cmdline", inner)}, [&] {
    Exec(nginx, {"nginx", "-c", inner + "; true"});
  });
  Expected e = Common("execve", "sh", "/usr/bin/dash");
  e.values["proc.pname"] = "nginx";
  e.values["proc.pexe"] = "nginx";
  e.values["proc.pexepath"] = nginx;
  e.values["proc.pcmdline"] = "nginx -c " + inner + "; true";
  // aname[2] is this test, aname[3] its parent...
  ExpectAncestors(e, 2, 7, 2);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, SystemUserInteractive) {
  if (!Enabled()) return;
  // The system user daemon running a program named login.
  TempDir dir;
  const std::string login = dir.Copy("/bin/true", "login");
  const std::string arg = Unique("login");
  auto alert = ExpectAlert("System user interactive", {Field("proc.cmdline", "login " + arg)}, [&] {
    Exec(login, {"login", arg}, [] {
      if (setgid(1) != 0 || setuid(1) != 0) _exit(126);
    });
  });
  Expected e = Common("execve", "login", login);
  e.values["user.name"] = "daemon";
  e.values["user.uid"] = "1";
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, SearchPrivateKeysOrPasswords) {
  if (!Enabled()) return;
  const std::string file = "/nonexistent-" + Unique("keys");
  auto alert = ExpectAlert("Search Private Keys or Passwords",
                           {Field("proc.cmdline", "grep BEGIN PRIVATE " + file)}, [&] {
                             Exec("/bin/grep", {"grep", "BEGIN PRIVATE", file});
                           });
  CheckFields(alert, Common("execve", "grep", "/usr/bin/grep"));
}

TEST_F(FalcoRulesFireTest, ClearLogActivities) {
  if (!Enabled()) return;
  const std::string log = "/var/log/" + Unique("log") + ".log";
  auto alert = ExpectAlert("Clear Log Activities", {Field("fd.name", log)}, [&] {
    Exec("/bin/sh", {"sh", "-c", ": > " + log});
  });
  fs::remove(log);
  Expected e = Common("openat", "sh", "/usr/bin/dash");
  e.values["proc.cmdline"] = "sh -c : > " + log;
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, RemoveBulkDataFromDisk) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string file = dir.path() + "/" + Unique("shred");
  auto alert =
      ExpectAlert("Remove Bulk Data from Disk", {Field("proc.cmdline", "shred " + file)}, [&] {
        std::ofstream(file) << "data";
        Exec("/usr/bin/shred", {"shred", file});
      });
  Expected e = Common("execve", "shred", "/usr/bin/shred");
  e.na = {"fd.name"};  // an execve has no file descriptor
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, CreateSymlinkOverSensitiveFiles) {
  if (!Enabled()) return;
  const std::string link = "/nonexistent-kestrel-dir/" + Unique("symlink");
  auto alert =
      ExpectAlert("Create Symlink Over Sensitive Files", {Field("evt.arg.linkpath", link)},
                  [&] { InChild([&] { return symlink("/etc/shadow", link.c_str()) == 0; }); });
  // glibc's symlink() and link() are the x86_64 symlink and link calls.
  Expected e = Common("symlink", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["evt.arg.target"] = "/etc/shadow";
  e.values["proc.pname"] = *Ancestor(0);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, CreateHardlinkOverSensitiveFiles) {
  if (!Enabled()) return;
  // The attempt is what the rule reports: a link into a missing folder fails,
  // so no second name for /etc/shadow is left behind.
  const std::string hard = "/nonexistent-kestrel-dir/" + Unique("hardlink");
  auto alert =
      ExpectAlert("Create Hardlink Over Sensitive Files", {Field("evt.arg.newpath", hard)},
                  [&] { InChild([&] { return link("/etc/shadow", hard.c_str()) == 0; }); });
  Expected e = Common("link", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["evt.arg.oldpath"] = "/etc/shadow";
  e.values["proc.pname"] = *Ancestor(0);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, PtraceAttachedToProcess) {
  if (!Enabled()) return;
  auto alert = ExpectAlert("PTRACE attached to process", {Field("evt.type", "ptrace")}, [] {
    const pid_t target = fork();
    if (target == 0) {
      pause();
      _exit(0);
    }
    InChild([&] {
      if (ptrace(PTRACE_ATTACH, target, nullptr, nullptr) != 0) return 1;
      waitpid(target, nullptr, 0);
      ptrace(PTRACE_DETACH, target, nullptr, nullptr);
      return 0;
    });
    kill(target, SIGKILL);
    waitpid(target, nullptr, 0);
  });
  Expected e = Common("ptrace", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["proc.pname"] = *Ancestor(0);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, PtraceAntiDebugAttempt) {
  if (!Enabled()) return;
  auto alert = ExpectAlert("PTRACE anti-debug attempt", {Field("evt.type", "ptrace")}, [] {
    InChild([] { return ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? 0 : 1; });
  });
  Expected e = Common("ptrace", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["proc.pname"] = *Ancestor(0);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, FindAwsCredentials) {
  if (!Enabled()) return;
  const std::string file = "/nonexistent-" + Unique("aws");
  auto alert = ExpectAlert("Find AWS Credentials",
                           {Field("proc.cmdline", "grep aws_access_key_id " + file)}, [&] {
                             Exec("/bin/grep", {"grep", "aws_access_key_id", file});
                           });
  Expected e = Common("execve", "grep", "/usr/bin/grep");
  e.values["proc.cwd"] = fs::current_path().string() + "/";
  e.values["group.gid"] = "0";
  e.values["group.name"] = "root";
  e.na = {"user.loginname"};  // no login session: loginuid is unset
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, ExecutionFromDevShm) {
  if (!Enabled()) return;
  const std::string path = "/dev/shm/" + Unique("shm");
  fs::copy_file("/bin/true", path, fs::copy_options::overwrite_existing);
  chmod(path.c_str(), 0755);
  auto alert = ExpectAlert("Execution from /dev/shm", {Field("proc.exepath", path)},
                           [&] { Exec(path, {path}); });
  fs::remove(path);
  Expected e = Common("execve", path.substr(path.rfind('/') + 1, 15), path);
  e.values["evt.res"] = "SUCCESS";
  e.na = {"fd.name", "user.loginname"};
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, DisallowedSshConnectionNonStandardPort) {
  if (!Enabled()) return;
  const std::optional<in_addr> ip = PublicIpv4();
  ASSERT_TRUE(ip.has_value()) << "this host has no address outside loopback and RFC 1918";
  Listener listener(*ip, 4444);
  ASSERT_TRUE(listener.ok()) << "port 4444 is taken on this host";
  char text[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &*ip, text, sizeof(text));
  // A program named ssh (a copy of bash) connecting to port 4444.
  TempDir dir;
  const std::string ssh = dir.Copy("/bin/bash", "ssh");
  const std::string script = std::string("exec 3<>/dev/tcp/") + text + "/4444; : " + Unique("ssh");
  auto alert = ExpectAlert("Disallowed SSH Connection Non Standard Port",
                           {Field("proc.cmdline", "ssh -c " + script)}, [&] {
                             Exec(ssh, {"ssh", "-c", script});
                           });
  Expected e = Common("connect", "ssh", ssh);
  e.values["fd.rport"] = "4444";
  e.values["fd.type"] = "ipv4";
  e.values["fd.l4proto"] = "tcp";
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, FilelessExecutionViaMemfdCreate) {
  if (!Enabled()) return;
  const std::string arg = Unique("memfd");
  auto alert = ExpectAlert("Fileless execution via memfd_create", {arg}, [&] {
    InChild([&] {
      const int mem = memfd_create("kestrel-falco", MFD_CLOEXEC);
      const int exe = open("/bin/true", O_RDONLY | O_CLOEXEC);
      struct stat st {};
      fstat(exe, &st);
      if (sendfile(mem, exe, nullptr, st.st_size) != st.st_size) return 1;
      const int null = open("/dev/null", O_RDWR);
      dup2(null, 1);
      char* const argv[] = {const_cast<char*>("memfd-true"), const_cast<char*>(arg.c_str()),
                            nullptr};
      char* const envp[] = {nullptr};
      fexecve(mem, argv, envp);
      return 127;
    });
  });
  Expected e;
  e.values = {{"evt.type", "execve"},
              {"user.name", "root"},
              {"evt.res", "SUCCESS"},
              {"proc.pname", Comm(getpid())}};
  // container.start_ts is filled on a host too: Falco gives the start of the
  // pid namespace's init, here the host's.
  CheckFields(alert, e);
}

// Rules for containers, triggered from a cgroup named like a Docker
// container's (see ContainerCgroup): container.id is its id, and fields from
// the runtime (image, privileged) are empty or <NA> as without a runtime.

TEST_F(FalcoRulesFireTest, TerminalShellInContainer) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  // A shell with a terminal, started by a runtime's entry point (a copy of
  // dash named runc) in the container.
  TempDir dir;
  const std::string runc = dir.Copy("/bin/dash", "runc");
  const std::string inner = "sh -c : " + Unique("tty");
  auto alert = ExpectAlert("Terminal shell in container", {Field("proc.cmdline", inner)}, [&] {
    ExecOnNewTerminal(runc, {"runc", "-c", inner + "; true"}, [&] {
      if (!container.Join()) _exit(126);
    });
  });
  Expected e = Common("execve", "sh", "/usr/bin/dash");
  e.values["proc.pname"] = "runc";
  e.values.erase("proc.tty");  // the pty's device number
  CheckFields(alert, e);
  if (alert) {
    EXPECT_NE(alert->Find("output_fields")->Find("proc.tty")->text, "0");
  }
}

TEST_F(FalcoRulesFireTest, NetcatRemoteCodeExecutionInContainer) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  TempDir dir;
  const std::string nc = dir.Copy("/bin/true", "nc");
  const std::string arg = Unique("nc");
  auto alert = ExpectAlert("Netcat Remote Code Execution in Container",
                           {Field("proc.cmdline", "nc -e /bin/sh " + arg)}, [&] {
                             Exec(nc, {"nc", "-e", "/bin/sh", arg}, [&] {
                               if (!container.Join()) _exit(126);
                             });
                           });
  CheckFields(alert, Common("execve", "nc", nc));
}

// A grandchild of this test, in the container, running `body`. A process
// is in a container from its clone or exec on (as Falco reads cgroups then):
// the child joins, and the grandchild it clones is born in the container.
int InContainer(const ContainerCgroup& container, const std::function<int()>& body) {
  return InChild([&] { return container.Join() ? InChild(body) : 126; });
}

TEST_F(FalcoRulesFireTest, PacketSocketCreatedInContainer) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  auto alert =
      ExpectAlert("Packet socket created in container", {Field("evt.type", "socket")}, [&] {
        InContainer(container, [] {
          const int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
          close(fd);
          return fd >= 0 ? 0 : 1;
        });
      });
  Expected e = Common("socket", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  // A packet socket has no addresses: Falco's fd fields of an IP socket do
  // not apply, and what it prints for them is not settled here.
  e.unchecked = {"fd.name", "fd.lport", "fd.rport", "fd.l4proto", "fd.type"};
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, RedirectStdoutStdinToNetworkConnectionInContainer) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  in_addr loopback{};
  loopback.s_addr = htonl(INADDR_LOOPBACK);
  Listener listener(loopback, 0);
  ASSERT_TRUE(listener.ok());
  const uint16_t port = listener.port();
  auto alert = ExpectAlert("Redirect STDOUT/STDIN to Network Connection in Container",
                           {"\"fd.rport\":" + std::to_string(port)}, [&] {
                             InContainer(container, [&] {
                               const int fd = socket(AF_INET, SOCK_STREAM, 0);
                               sockaddr_in sa{};
                               sa.sin_family = AF_INET;
                               sa.sin_addr = loopback;
                               sa.sin_port = htons(port);
                               if (connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0)
                                 return 1;
                               return dup2(fd, 1) == 1 ? 0 : 1;
                             });
                           });
  Expected e = Common("dup2", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["fd.sip"] = "127.0.0.1";
  e.values["fd.type"] = "ipv4";
  e.values["fd.l4proto"] = "tcp";
  e.values["fd.rport"] = std::to_string(port);
  e.values["proc.pname"] = *Ancestor(0);
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, LinuxKernelModuleInjectionDetected) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  // Not a module: the kernel refuses it, and the attempt is what is reported.
  TempDir dir;
  const std::string module = dir.path() + "/" + Unique("mod") + ".ko";
  std::ofstream(module) << "not an ELF module";
  auto alert = ExpectAlert("Linux Kernel Module Injection Detected",
                           {Field("evt.type", "finit_module")}, [&] {
                             InContainer(container, [&] {
                               const int fd = open(module.c_str(), O_RDONLY | O_CLOEXEC);
                               syscall(SYS_finit_module, fd, "", 0);
                               close(fd);
                               return 0;
                             });
                           });
  Expected e = Common("finit_module", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["proc.pname"] = *Ancestor(0);     // the child that joined
  e.values["proc.aname[2]"] = *Ancestor(0);  // this test
  CheckFields(alert, e);
}

TEST_F(FalcoRulesFireTest, DetectReleaseAgentFileContainerEscapes) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  TempDir dir;
  const std::string agent = dir.path() + "/release_agent";
  auto alert =
      ExpectAlert("Detect release_agent File Container Escapes", {Field("fd.name", agent)}, [&] {
        InContainer(container, [&] {
          const int fd = open(agent.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
          close(fd);
          return fd >= 0 ? 0 : 1;
        });
      });
  Expected e = Common("openat", Comm(getpid()), fs::read_symlink("/proc/self/exe").string());
  e.values["proc.pname"] = *Ancestor(0);
  CheckFields(alert, e);
}

// An overlay mount, as a container's root: files written through it land on
// its upper layer.
class OverlayMount {
 public:
  explicit OverlayMount(const std::string& base) : merged_(base + "/merged") {
    for (const char* d : {"/lower", "/upper", "/work", "/merged"}) mkdir((base + d).c_str(), 0755);
    const std::string options =
        "lowerdir=" + base + "/lower,upperdir=" + base + "/upper,workdir=" + base + "/work";
    ok_ = mount("overlay", merged_.c_str(), "overlay", 0, options.c_str()) == 0;
  }
  ~OverlayMount() {
    if (ok_) umount2(merged_.c_str(), MNT_DETACH);
  }
  bool ok() const { return ok_; }
  const std::string& merged() const { return merged_; }

 private:
  std::string merged_;
  bool ok_ = false;
};

TEST_F(FalcoRulesFireTest, DropAndExecuteNewBinaryInContainer) {
  if (!Enabled()) return;
  ContainerCgroup container;
  ASSERT_TRUE(container.ok());
  TempDir dir;
  OverlayMount overlay(dir.path());
  ASSERT_TRUE(overlay.ok());
  // A binary written into the container after it started: on the upper layer.
  const std::string dropped = dir.Copy("/bin/true", "dropped");
  const std::string exe = overlay.merged() + "/dropped";
  fs::copy_file(dropped, exe);
  chmod(exe.c_str(), 0755);
  const std::string arg = Unique("drop");
  auto alert = ExpectAlert("Drop and execute new binary in container",
                           {Field("proc.cmdline", "dropped " + arg)}, [&] {
                             Exec(exe, {exe, arg}, [&] {
                               if (!container.Join()) _exit(126);
                             });
                           });
  Expected e = Common("execve", "dropped", exe);
  e.values["proc.exe"] = exe;
  CheckFields(alert, e);
  if (alert) {
    const JsonValue* flags = alert->Find("output_fields")->Find("evt.arg.flags");
    ASSERT_NE(flags, nullptr);
    EXPECT_NE(flags->text.find("EXE_UPPER_LAYER"), std::string::npos) << flags->text;
  }
}

}  // namespace
}  // namespace kestrel::e2e
