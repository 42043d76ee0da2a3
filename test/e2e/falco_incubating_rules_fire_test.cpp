// Falco's public incubating and sandbox rules (falco-incubating_rules.yaml
// and falco-sandbox_rules.yaml from falcosecurity/rules, loaded after the
// stable falco_rules.yaml as Falco loads them) fire under `kestrel run` for
// every rule whose trigger can happen on a host without a container
// runtime, with each %field of the rule's output filled as Falco fills it
// there. rule_matching=all: a trigger that also matches an earlier rule
// still shows the rule under test. The files are not part of Kestrel: the
// suite reads them from the folder KESTREL_FALCO_RULES_DIR names and passes
// without checking when it is unset.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "falco_rules_triggers.h"

namespace kestrel::e2e {
namespace {

using namespace kestrel::e2e::falco;  // the Falco suites' shared triggers and checks

class FalcoIncubatingRulesFireTest : public FalcoRulesFixture {
 protected:
  static void SetUpTestSuite() {
    const std::string dir = RulesDir() ? RulesDir() : "";
    StartRun({"run", "-r", dir + "/falco_rules.yaml", "-r", dir + "/falco-incubating_rules.yaml",
              "-r", dir + "/falco-sandbox_rules.yaml", "--no-pin", "-o", "json_output=true", "-o",
              "rule_matching=all"});
  }
  static void TearDownTestSuite() { StopRun(); }
};

// Falco's proc.cmdline of this test: its comm, then its arguments. A child
// this test execs has it as proc.pcmdline.
std::string OwnCmdline() {
  std::ifstream in("/proc/self/cmdline");
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string line = Comm(getpid());
  size_t at = raw.find('\0');  // past argv[0]
  while (at != std::string::npos && at + 1 < raw.size()) {
    const size_t end = raw.find('\0', at + 1);
    line += " " + raw.substr(at + 1, end - at - 1);
    at = end;
  }
  return line;
}

std::string SelfExe() { return fs::read_symlink("/proc/self/exe").string(); }

// A file the test creates where a rule watches, removed however the test ends.
class ScopedPath {
 public:
  explicit ScopedPath(std::string path) : path_(std::move(path)) {}
  ~ScopedPath() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `touch PATH`: coreutils' openat(AT_FDCWD, PATH, O_WRONLY|O_CREAT|...),
// the open_write of Falco's macros.
void Touch(const std::string& path) { Exec("/bin/touch", {"touch", path}); }

// The fields of an open_write by `touch PATH` exec'd by this test.
Expected TouchFields(const std::string& path) {
  Expected e = Common("openat", "touch", "/usr/bin/touch");
  e.values["fd.name"] = path;
  e.values["proc.cmdline"] = "touch " + path;
  return e;
}

// Drops the calling child to the system user daemon (uid and gid 1) with
// setresuid/setresgid, which no rule here watches.
bool BecomeDaemon() { return setresgid(1, 1, 1) == 0 && setresuid(1, 1, 1) == 0; }

// --- Files ---

TEST_F(FalcoIncubatingRulesFireTest, ModifyShellConfigurationFile) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string file = dir.path() + "/.bashrc";
  auto alert = ExpectAlert("Modify Shell Configuration File", {Field("fd.name", file)},
                           [&] { Touch(file); });
  Expected e = TouchFields(file);
  e.values["proc.pcmdline"] = OwnCmdline();
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, ScheduleCronJobs) {
  if (!Enabled()) return;
  // A file named /etc/cron<...> that cron never reads (not in /etc/cron.d).
  ScopedPath file("/etc/cron." + Unique("cron"));
  auto alert = ExpectAlert("Schedule Cron Jobs", {Field("fd.name", file.path())},
                           [&] { Touch(file.path()); });
  CheckFields(alert, TouchFields(file.path()));
}

TEST_F(FalcoIncubatingRulesFireTest, ScheduleCronJobsByCrontab) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string crontab = dir.Copy("/bin/true", "crontab");
  const std::string arg = Unique("crontab");
  auto alert = ExpectAlert("Schedule Cron Jobs", {Field("proc.cmdline", "crontab " + arg)}, [&] {
    Exec(crontab, {"crontab", arg});
  });
  Expected e = Common("execve", "crontab", crontab);
  e.na = {"fd.name"};  // an execve has no file descriptor
  CheckFields(alert, e);
}

// A home folder of this run's own, with a .ssh folder: what Falco's
// user_ssh_directory macro matches (/home/*/.ssh/*).
class SshHome {
 public:
  SshHome() : home_("/home/" + Unique("home")) { fs::create_directories(home_.path() + "/.ssh"); }
  std::string File(const std::string& name) const { return home_.path() + "/.ssh/" + name; }

 private:
  ScopedPath home_;
};

TEST_F(FalcoIncubatingRulesFireTest, ReadSshInformation) {
  if (!Enabled()) return;
  SshHome home;
  const std::string key = home.File("id_kestrel");
  std::ofstream(key) << "not a key\n";
  auto alert = ExpectAlert("Read ssh information", {Field("fd.name", key)}, [&] {
    Exec("/bin/cat", {"cat", key});
  });
  Expected e = Common("openat", "cat", "/usr/bin/cat");
  e.values["fd.name"] = key;
  e.values["proc.cmdline"] = "cat " + key;
  e.values["proc.pcmdline"] = OwnCmdline();
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, AddingSshKeysToAuthorizedKeys) {
  if (!Enabled()) return;
  SshHome home;
  const std::string keys = home.File("authorized_keys");
  auto alert = ExpectAlert("Adding ssh keys to authorized_keys", {Field("fd.name", keys)},
                           [&] { Touch(keys); });
  CheckFields(alert, TouchFields(keys));
}

TEST_F(FalcoIncubatingRulesFireTest, DeleteOrRenameShellHistory) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string history = dir.path() + "/" + Unique("history") + ".bash_history";
  // The unlink itself, not the truncating open that recreates the file.
  auto alert = ExpectAlert(
      "Delete or rename shell history",
      {Field("evt.type", "unlinkat"), Field("evt.arg.name", history)}, [&] {
        std::ofstream(history) << "ls\n";
        InChild([&] { return syscall(SYS_unlinkat, AT_FDCWD, history.c_str(), 0) == 0 ? 0 : 1; });
      });
  Expected e = Common("unlinkat", Comm(getpid()), SelfExe());
  e.values["evt.arg.name"] = history;
  // unlinkat's dirfd is AT_FDCWD, no descriptor of the process; it has no
  // path or oldpath parameter.
  e.na = {"fd.name", "evt.arg.path", "evt.arg.oldpath"};
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, SetSetuidOrSetgidBit) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string file = dir.path() + "/" + Unique("setuid");
  std::ofstream(file) << "";
  auto alert = ExpectAlert("Set Setuid or Setgid bit", {Field("evt.arg.filename", file)}, [&] {
    InChild([&] { return syscall(SYS_fchmodat, AT_FDCWD, file.c_str(), 04755) == 0 ? 0 : 1; });
  });
  Expected e = Common("fchmodat", Comm(getpid()), SelfExe());
  e.values["evt.arg.filename"] = file;
  // Falco names the mode's bits in its chmod_mode table's order.
  e.values["evt.arg.mode"] = "S_IXOTH|S_IROTH|S_IXGRP|S_IRGRP|S_IXUSR|S_IWUSR|S_IRUSR|S_ISUID";
  e.na = {"evt.arg.fd"};  // fchmodat has a dirfd, no fd parameter
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, CreateFilesBelowDev) {
  if (!Enabled()) return;
  ScopedPath file("/dev/" + Unique("dev"));
  auto alert = ExpectAlert("Create files below dev", {Field("fd.name", file.path())},
                           [&] { Touch(file.path()); });
  CheckFields(alert, TouchFields(file.path()));
}

TEST_F(FalcoIncubatingRulesFireTest, WriteBelowBinaryDir) {
  if (!Enabled()) return;
  ScopedPath file("/usr/bin/" + Unique("bin"));
  auto alert = ExpectAlert("Write below binary dir", {Field("fd.name", file.path())},
                           [&] { Touch(file.path()); });
  Expected e = TouchFields(file.path());
  e.values["proc.pcmdline"] = OwnCmdline();
  ExpectAncestors(e, 2, 2);
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, WriteBelowEtc) {
  if (!Enabled()) return;
  ScopedPath file("/etc/" + Unique("etc"));
  auto alert =
      ExpectAlert("Write below etc", {Field("fd.name", file.path())}, [&] { Touch(file.path()); });
  Expected e = TouchFields(file.path());
  e.values["proc.pcmdline"] = OwnCmdline();
  ExpectAncestors(e, 2, 4);
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, WriteBelowRoot) {
  if (!Enabled()) return;
  ScopedPath file("/root/" + Unique("root"));
  auto alert =
      ExpectAlert("Write below root", {Field("fd.name", file.path())}, [&] { Touch(file.path()); });
  CheckFields(alert, TouchFields(file.path()));
}

TEST_F(FalcoIncubatingRulesFireTest, ModifyBinaryDirs) {
  if (!Enabled()) return;
  ScopedPath file("/usr/bin/" + Unique("modify"));
  auto alert = ExpectAlert("Modify binary dirs", {Field("evt.type", "unlinkat"), file.path()}, [&] {
    std::ofstream(file.path()) << "";
    InChild([&] { return syscall(SYS_unlinkat, AT_FDCWD, file.path().c_str(), 0) == 0 ? 0 : 1; });
  });
  Expected e = Common("unlinkat", Comm(getpid()), SelfExe());
  e.values["proc.pcmdline"] = OwnCmdline();  // a fork of this test: same command line
  e.values["proc.cmdline"] = OwnCmdline();
  e.na = {"fd.name"};  // the dirfd is AT_FDCWD
  CheckFields(alert, e);
  if (alert) {
    const std::string args = alert->Find("output_fields")->Find("evt.args")->text;
    EXPECT_NE(args.find("name=" + file.path()), std::string::npos) << args;
  }
}

TEST_F(FalcoIncubatingRulesFireTest, MkdirBinaryDirs) {
  if (!Enabled()) return;
  ScopedPath dir("/usr/bin/" + Unique("mkdir"));
  auto alert = ExpectAlert("Mkdir binary dirs", {Field("evt.arg.path", dir.path())}, [&] {
    InChild([&] { return syscall(SYS_mkdir, dir.path().c_str(), 0755) == 0 ? 0 : 1; });
    rmdir(dir.path().c_str());
  });
  Expected e = Common("mkdir", Comm(getpid()), SelfExe());
  e.values["evt.arg.path"] = dir.path();
  CheckFields(alert, e);
}

// Falco reads a relative path argument against what it is relative to (the
// working directory, or the dirfd's folder): `mkdir NAME` run in /usr/bin
// is a mkdir below a binary dir, and evt.arg.path names the full path.
TEST_F(FalcoIncubatingRulesFireTest, MkdirBinaryDirsRelativeToWorkingDirectory) {
  if (!Enabled()) return;
  const std::string name = Unique("mkdir-relative");
  ScopedPath dir("/usr/bin/" + name);
  auto alert = ExpectAlert("Mkdir binary dirs", {Field("evt.arg.path", dir.path())}, [&] {
    InChild([&] {
      if (chdir("/usr/bin") != 0) return 1;
      return syscall(SYS_mkdir, name.c_str(), 0755) == 0 ? 0 : 1;
    });
    rmdir(dir.path().c_str());
  });
  Expected e = Common("mkdir", Comm(getpid()), SelfExe());
  e.values["evt.arg.path"] = dir.path();
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, ModifyBinaryDirsRelativeToDirectoryFd) {
  if (!Enabled()) return;
  const std::string name = Unique("modify-relative");
  ScopedPath file("/usr/bin/" + name);
  auto alert = ExpectAlert("Modify binary dirs", {Field("evt.type", "unlinkat"), file.path()}, [&] {
    std::ofstream(file.path()) << "";
    InChild([&] {
      const int dirfd = open("/usr/bin", O_RDONLY | O_DIRECTORY);
      return syscall(SYS_unlinkat, dirfd, name.c_str(), 0) == 0 ? 0 : 1;
    });
  });
  Expected e = Common("unlinkat", Comm(getpid()), SelfExe());
  e.values["proc.pcmdline"] = OwnCmdline();
  e.values["proc.cmdline"] = OwnCmdline();
  // Falco's fd of an unlinkat is its dirfd: the folder, here /usr/bin.
  e.values["fd.name"] = "/usr/bin";
  CheckFields(alert, e);
  if (alert) {
    // name=RAW(RESOLVED) in Falco's evt.args: the full path is there.
    const std::string args = alert->Find("output_fields")->Find("evt.args")->text;
    EXPECT_NE(args.find(file.path()), std::string::npos) << args;
  }
}

TEST_F(FalcoIncubatingRulesFireTest, UpdatePackageRepository) {
  if (!Enabled()) return;
  // Directly in /etc/apt, where apt reads no file of this name.
  ScopedPath file("/etc/apt/" + Unique("repo"));
  auto alert = ExpectAlert("Update Package Repository", {Field("fd.name", file.path())},
                           [&] { Touch(file.path()); });
  Expected e = TouchFields(file.path());
  e.values["proc.pcmdline"] = OwnCmdline();
  e.na = {"evt.arg.newpath"};  // an openat has no newpath
  CheckFields(alert, e);
}

// --- Users and privileges ---

// Falco's evt.arg.uid is the user's name, so the rule's `evt.arg.uid=nobody`
// exceptions can match.
TEST_F(FalcoIncubatingRulesFireTest, NonSudoSetuid) {
  if (!Enabled()) return;
  // The system user daemon asking to become root: refused, and reported.
  auto alert = ExpectAlert("Non sudo setuid", {Field("evt.type", "setuid"), "\"user.uid\":1"}, [] {
    InChild([] { return BecomeDaemon() && setuid(0) != 0 ? 0 : 1; });
  });
  Expected e = Common("setuid", Comm(getpid()), SelfExe());
  e.values["user.name"] = "daemon";
  e.values["user.uid"] = "1";
  e.values["evt.arg.uid"] = "root";  // Falco names the requested uid's user
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, UserMgmtBinaries) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string useradd = dir.Copy("/bin/true", "useradd");
  const std::string arg = Unique("useradd");
  auto alert = ExpectAlert("User mgmt binaries", {Field("proc.cmdline", "useradd " + arg)}, [&] {
    Exec(useradd, {"useradd", arg});
  });
  Expected e = Common("execve", "useradd", useradd);
  ExpectAncestors(e, 2, 4);
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, PotentialLocalPrivilegeEscalationViaEnvironmentVariables) {
  if (!Enabled()) return;
  // A tunable glibc does not know: ignored by the program, seen by the rule.
  const std::string tunables = "glibc.kestrel." + Unique("tunable") + "=1";
  const std::string arg = Unique("tunables");
  auto alert = ExpectAlert(
      "Potential Local Privilege Escalation via Environment Variables Misuse",
      {Field("proc.cmdline", "true " + arg)}, [&] {
        Exec("/bin/true", {"true", arg}, [&] { setenv("GLIBC_TUNABLES", tunables.c_str(), 1); });
      });
  Expected e = Common("execve", "true", "/usr/bin/true");
  CheckFields(alert, e);
  if (alert) {
    const std::string env = alert->Find("output_fields")->Find("proc.env")->text;
    EXPECT_NE(env.find("GLIBC_TUNABLES=" + tunables), std::string::npos) << env;
  }
}

TEST_F(FalcoIncubatingRulesFireTest, PolkitLocalPrivilegeEscalationVulnerability) {
  if (!Enabled()) return;
  // pkexec started with no argument at all, as the exploit starts it.
  TempDir dir;
  const std::string pkexec = dir.Copy("/bin/true", "pkexec");
  auto alert = ExpectAlert("Polkit Local Privilege Escalation Vulnerability (CVE-2021-4034)",
                           {Field("proc.exepath", pkexec)}, [&] { Exec(pkexec, {"pkexec"}); });
  Expected e = Common("execve", "pkexec", pkexec);
  e.values["proc.args"] = "";
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, SudoPotentialPrivilegeEscalation) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string sudo = dir.Copy("/bin/true", "sudo");
  const std::string arg = Unique("sudo") + "\\";  // ends with one backslash
  auto alert =
      ExpectAlert("Sudo Potential Privilege Escalation", {Field("proc.exepath", sudo)}, [&] {
        Exec(sudo, {"sudo", "-s", arg});
      });
  Expected e = Common("execve", "sudo", sudo);
  e.values["proc.cmdline"] = "sudo -s " + arg;
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, UnprivilegedDelegationOfPageFaultsHandling) {
  if (!Enabled()) return;
  // UFFD_USER_MODE_ONLY: what an unprivileged user may open whatever
  // vm.unprivileged_userfaultfd says.
  auto alert = ExpectAlert("Unprivileged Delegation of Page Faults Handling to a Userspace Process",
                           {Field("evt.type", "userfaultfd"), "\"user.uid\":1"}, [] {
                             InChild([] {
                               if (!BecomeDaemon()) return 1;
                               const long fd =
                                   syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
                               return fd >= 0 ? 0 : 1;
                             });
                           });
  Expected e = Common("userfaultfd", Comm(getpid()), SelfExe());
  e.values["user.name"] = "daemon";
  e.values["user.uid"] = "1";
  CheckFields(alert, e);
}

// --- Processes ---

TEST_F(FalcoIncubatingRulesFireTest, ChangeThreadNamespace) {
  if (!Enabled()) return;
  // A process entering its own UTS namespace: a setns that changes nothing.
  auto alert = ExpectAlert("Change thread namespace",
                           {Field("evt.type", "setns"), Field("proc.name", Comm(getpid()))}, [] {
                             InChild([] {
                               const int fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
                               return setns(fd, CLONE_NEWUTS) == 0 ? 0 : 1;
                             });
                           });
  CheckFields(alert, Common("setns", Comm(getpid()), SelfExe()));
}

TEST_F(FalcoIncubatingRulesFireTest, LaunchSuspiciousNetworkToolOnHost) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string nmap = dir.Copy("/bin/true", "nmap");
  const std::string arg = Unique("nmap");
  auto alert = ExpectAlert("Launch Suspicious Network Tool on Host",
                           {Field("proc.cmdline", "nmap " + arg)}, [&] {
                             Exec(nmap, {"nmap", arg});
                           });
  CheckFields(alert, Common("execve", "nmap", nmap));
}

TEST_F(FalcoIncubatingRulesFireTest, NetcatSocatRemoteCodeExecutionOnHost) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string nc = dir.Copy("/bin/true", "nc");
  const std::string arg = Unique("nc");
  auto alert = ExpectAlert("Netcat/Socat Remote Code Execution on Host",
                           {Field("proc.cmdline", "nc -e /bin/sh " + arg)}, [&] {
                             Exec(nc, {"nc", "-e", "/bin/sh", arg});
                           });
  CheckFields(alert, Common("execve", "nc", nc));
}

TEST_F(FalcoIncubatingRulesFireTest, KnownCryptominerProcessExecuted) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string xmrig = dir.Copy("/bin/true", "xmrig");
  const std::string arg = Unique("xmrig");
  auto alert = ExpectAlert("Known Cryptominer Process Executed",
                           {Field("proc.cmdline", "xmrig " + arg)}, [&] {
                             Exec(xmrig, {"xmrig", arg});
                           });
  CheckFields(alert, Common("execve", "xmrig", xmrig));
}

TEST_F(FalcoIncubatingRulesFireTest, DetectCryptoMinersUsingTheStratumProtocol) {
  if (!Enabled()) return;
  const std::string pool = "stratum+tcp://" + Unique("pool") + ".invalid:3333";
  auto alert = ExpectAlert("Detect crypto miners using the Stratum protocol",
                           {Field("proc.cmdline", "true -o " + pool)}, [&] {
                             Exec("/bin/true", {"true", "-o", pool});
                           });
  CheckFields(alert, Common("execve", "true", "/usr/bin/true"));
}

TEST_F(FalcoIncubatingRulesFireTest, ProgramRunWithDisallowedHttpProxyEnv) {
  if (!Enabled()) return;
  TempDir dir;
  const std::string curl = dir.Copy("/bin/true", "curl");
  const std::string proxy = "http://" + Unique("proxy") + ".invalid:3128";
  auto alert =
      ExpectAlert("Program run with disallowed http proxy env", {Field("proc.exepath", curl)}, [&] {
        Exec(curl, {"curl", "http://example.invalid/"},
             [&] { setenv("HTTP_PROXY", proxy.c_str(), 1); });
      });
  CheckFields(alert, Common("execve", "curl", curl));
  if (alert) {
    const std::string env = alert->Find("output_fields")->Find("proc.env")->text;
    EXPECT_NE(env.find("HTTP_PROXY=" + proxy), std::string::npos) << env;
  }
}

TEST_F(FalcoIncubatingRulesFireTest, DbProgramSpawnedProcess) {
  if (!Enabled()) return;
  // A database server (a copy of dash named mysqld) running a program.
  TempDir dir;
  const std::string mysqld = dir.Copy("/bin/dash", "mysqld");
  const std::string arg = Unique("db");
  auto alert =
      ExpectAlert("DB program spawned process", {Field("proc.cmdline", "true " + arg)}, [&] {
        Exec(mysqld, {"mysqld", "-c", "/bin/true " + arg + "; true"});
      });
  Expected e = Common("execve", "true", "/usr/bin/true");
  e.values["proc.pname"] = "mysqld";
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, WebServerSpawnedShell) {
  if (!Enabled()) return;
  // A shell spawned by a web server (a copy of dash named nginx).
  TempDir dir;
  const std::string nginx = dir.Copy("/bin/dash", "nginx");
  const std::string inner = "sh -c : " + Unique("webshell");
  auto alert = ExpectAlert("Web Server Spawned Shell", {Field("proc.cmdline", inner)}, [&] {
    Exec(nginx, {"nginx", "-c", inner + "; true"});
  });
  Expected e = Common("execve", "sh", "/usr/bin/dash");
  e.values["proc.pname"] = "nginx";
  // aname[2] is this test, aname[3] its parent.
  ExpectAncestors(e, 2, 3, 2);
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, BasicInteractiveReconnaissance) {
  if (!Enabled()) return;
  // whoami typed at a terminal: the leader of its own process group, with
  // a pseudo-terminal as its controlling terminal.
  TempDir dir;
  const std::string whoami = dir.Copy("/bin/true", "whoami");
  const std::string arg = Unique("recon");
  auto alert = ExpectAlert("Basic Interactive Reconnaissance",
                           {Field("proc.cmdline", "whoami " + arg)}, [&] {
                             ExecOnNewTerminal(whoami, {"whoami", arg});
                           });
  Expected e = Common("execve", "whoami", whoami);
  e.values.erase("proc.tty");  // the pty's device number
  CheckFields(alert, e);
  if (alert) {
    EXPECT_NE(alert->Find("output_fields")->Find("proc.tty")->text, "0");
  }
}

TEST_F(FalcoIncubatingRulesFireTest, BpfProgramNotProfiled) {
  if (!Enabled()) return;
  // An empty BPF_PROG_LOAD: the kernel refuses it, the rule reports the try.
  auto alert = ExpectAlert("BPF Program Not Profiled",
                           {Field("evt.type", "bpf"), Field("proc.name", Comm(getpid()))}, [] {
                             InChild([] {
                               bpf_attr attr{};
                               syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
                               return 0;
                             });
                           });
  Expected e = Common("bpf", Comm(getpid()), SelfExe());
  e.values["evt.arg.cmd"] = "BPF_PROG_LOAD";
  CheckFields(alert, e);
}

// --- Network ---

// A UDP socket connected from a child of this test to this host's own
// outside address at `port`: a connect that succeeds without a listener.
void ConnectUdp(in_addr ip, uint16_t port) {
  InChild([&] {
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr = ip;
    sa.sin_port = htons(port);
    return connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) == 0 ? 0 : 1;
  });
}

// A port of this run's own, outside every list of expected UDP ports.
uint16_t OwnPort() { return static_cast<uint16_t>(20000 + getpid() % 10000); }

TEST_F(FalcoIncubatingRulesFireTest, UnexpectedUdpTraffic) {
  if (!Enabled()) return;
  const std::optional<in_addr> ip = PublicIpv4();
  ASSERT_TRUE(ip.has_value()) << "this host has no address outside loopback and RFC 1918";
  const uint16_t port = OwnPort();
  auto alert = ExpectAlert("Unexpected UDP Traffic",
                           {Field("evt.type", "connect"), Field("proc.name", Comm(getpid())),
                            "\"fd.rport\":" + std::to_string(port)},
                           [&] { ConnectUdp(*ip, port); });
  Expected e = Common("connect", Comm(getpid()), SelfExe());
  e.values["fd.rport"] = std::to_string(port);
  e.values["fd.type"] = "ipv4";
  e.values["fd.l4proto"] = "udp";
  CheckFields(alert, e);
}

TEST_F(FalcoIncubatingRulesFireTest, SystemProcsNetworkActivity) {
  if (!Enabled()) return;
  const std::optional<in_addr> ip = PublicIpv4();
  ASSERT_TRUE(ip.has_value()) << "this host has no address outside loopback and RFC 1918";
  char text[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &*ip, text, sizeof(text));
  const uint16_t port = OwnPort();
  // A shell opening a UDP "connection" with its /dev/udp redirection.
  const std::string script =
      "exec 3<>/dev/udp/" + std::string(text) + "/" + std::to_string(port) + "; : " + Unique("udp");
  auto alert = ExpectAlert("System procs network activity",
                           {Field("proc.cmdline", "bash -c " + script)}, [&] {
                             Exec("/bin/bash", {"bash", "-c", script});
                           });
  Expected e = Common("connect", "bash", "/usr/bin/bash");
  e.values["fd.rport"] = std::to_string(port);
  e.values["fd.type"] = "ipv4";
  e.values["fd.l4proto"] = "udp";
  CheckFields(alert, e);
}

}  // namespace
}  // namespace kestrel::e2e
