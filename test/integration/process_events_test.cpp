// Process events: each syscall made with known arguments, success and
// failure, every decoded parameter checked. Children are made with fork()
// and exec /bin/true; records are picked by the tids the test knows.
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <pty.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "host_files.h"
#include "probe_session.h"
#include "shared/event_types.h"
#include "temp_dir.h"

namespace kestrel::testing {
namespace {

constexpr uid_t kNobody = 65534;
constexpr int kChildFd = 100;

uint64_t Nanos(const timespec& t) {
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(t.tv_nsec);
}

// A "Cap*:" line of /proc/self/status as a mask.
uint64_t ProcCaps(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0)
      return std::stoull(line.substr(field.size() + 1), nullptr, 16);
  }
  ADD_FAILURE() << "no " << field << " in /proc/self/status";
  return 0;
}

uint32_t LoginUid() {
  std::ifstream in("/proc/self/loginuid");
  uint64_t v = UINT32_MAX;
  in >> v;
  return static_cast<uint32_t>(v);
}

// The cgroup v2 id of this process: the inode of its unified-hierarchy dir.
uint64_t CgroupId() {
  std::ifstream cg("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(cg, line)) {
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  }
  std::ifstream mi("/proc/self/mountinfo");
  std::string mount;
  while (std::getline(mi, line)) {
    if (line.find(" - cgroup2 ") == std::string::npos) continue;
    std::istringstream fields(line);
    std::string skip;
    fields >> skip >> skip >> skip >> skip >> mount;
    break;
  }
  struct stat st {};
  EXPECT_EQ(stat((mount + path).c_str(), &st), 0) << mount << path;
  return st.st_ino;
}

// The `cgroups` a record of this process carries: "controller=path" for
// each of Falco's controllers this kernel has, its v1 hierarchy's path
// from /proc/self/cgroup, or the unified path when it is on cgroup v2.
// The kernel calls blkio "io".
std::vector<std::string> ExpectedCgroups() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  std::vector<std::pair<std::string, std::string>> v1;  // controller, path
  std::string unified;
  while (std::getline(in, line)) {
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controllers.empty()) unified = path;
    std::istringstream names(controllers);
    for (std::string n; std::getline(names, n, ',');) v1.emplace_back(n, path);
  }
  std::ifstream known_in("/proc/cgroups");
  std::vector<std::string> known;
  while (std::getline(known_in, line)) {
    if (!line.empty() && line[0] != '#') known.push_back(line.substr(0, line.find('\t')));
  }
  std::vector<std::string> out;
  for (const char* name : {"cpuset", "cpu", "cpuacct", "io", "memory"}) {
    const std::string proc_name = std::string(name) == "io" ? "blkio" : name;
    if (std::find(known.begin(), known.end(), proc_name) == known.end() &&
        std::find(known.begin(), known.end(), name) == known.end()) {
      continue;
    }
    std::string path = unified;
    for (const auto& [n, p] : v1) {
      if (n == proc_name || n == name) path = p;
    }
    out.push_back(std::string(name) + "=" + path);
  }
  return out;
}

// This process's command line, split at its NULs.
std::vector<std::string> CmdLine() {
  std::ifstream in("/proc/self/cmdline");
  std::vector<std::string> out;
  std::string arg;
  while (std::getline(in, arg, '\0')) out.push_back(arg);
  return out;
}

// This process's parent, from /proc (a getppid call would be traced).
int64_t ParentFromProc() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PPid:", 0) == 0) return std::stoll(line.substr(5));
  }
  ADD_FAILURE() << "no PPid in /proc/self/status";
  return -1;
}

uint64_t FdLimit() {
  rlimit r{};
  EXPECT_EQ(getrlimit(RLIMIT_NOFILE, &r), 0);
  return r.rlim_cur;
}

std::string Comm() {
  std::ifstream in("/proc/self/comm");
  std::string c;
  std::getline(in, c);
  return c;
}

// Copies `from` to a new file `to` with `mode`.
void CopyFile(const std::string& from, const std::string& to, mode_t mode) {
  const int in = open(from.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  ASSERT_GE(in, 0);
  ASSERT_GE(out, 0);
  char buf[1 << 16];
  for (ssize_t n; (n = read(in, buf, sizeof(buf))) > 0;) ASSERT_EQ(write(out, buf, n), n);
  close(in);
  ASSERT_EQ(fchmod(out, mode), 0);  // past the umask
  close(out);
}

// Forks; the child runs `body` and _exits with what it returns. Returns the
// child's pid after it has been reaped, and its exit status in `status`.
pid_t RunChild(const std::function<int()>& body, int* status) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  EXPECT_GT(pid, 0);
  EXPECT_EQ(waitpid(pid, status, 0), pid);
  return pid;
}

int DropToNobody() {
  if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0) return 100;
  return 0;
}

// Makes the process unable to fork: an unprivileged user with no room in
// RLIMIT_NPROC.
int ForbidForks() {
  if (const int err = DropToNobody(); err != 0) return err;
  const rlimit none{0, 0};
  return setrlimit(RLIMIT_NPROC, &none) == 0 ? 0 : 101;
}

// Every record now in the rings, copied out.
std::vector<OwnedRecord> DrainEvery(ProbeSession& session) {
  std::vector<OwnedRecord> out;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(session.handle(), &record, &ring), 0);
    if (record == nullptr) return out;
    out.emplace_back(static_cast<const kestrel_record_header*>(record));
  }
}

class ProcessEventsTest : public ::testing::Test {
 protected:
  // One probe for the suite: its cases read only their own records.
  static void SetUpTestSuite() { ProbeSession::ShareInSuite(); }
  static void TearDownTestSuite() { ProbeSession::StopSharing(); }
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }

  // Children have their own tgid, so the session traces every process and
  // the test keeps the records of the tids it made.
  std::unique_ptr<ProbeSession> StartAll(std::vector<uint32_t> syscalls) {
    return ProbeSession::Start({.syscalls = std::move(syscalls), .trace_only_this_process = false});
  }
  std::unique_ptr<ProbeSession> StartSelf(std::vector<uint32_t> syscalls) {
    return ProbeSession::Start({.syscalls = std::move(syscalls)});
  }
  TempDir dir_;
};

// ---- execve / execveat --------------------------------------------------

TEST_F(ProcessEventsTest, ExecveReportsTheNewImage) {
  struct stat exe {};
  ASSERT_EQ(stat("/bin/true", &exe), 0);
  // A terminal the child makes its controlling tty as a session leader.
  int master = -1, slave = -1;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  struct stat tty {};
  ASSERT_EQ(fstat(slave, &tty), 0);
  const std::string cwd = RealPath(dir_.path());
  auto session = StartAll({SYS_execve});
  ASSERT_NE(session, nullptr);

  int status = 0;
  const pid_t child = RunChild(
      [&] {
        if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) != 0 || chdir(cwd.c_str()) != 0) return 100;
        char* const argv[] = {const_cast<char*>("true"), const_cast<char*>("alpha"),
                              const_cast<char*>("beta gamma"), nullptr};
        char* const envp[] = {const_cast<char*>("KESTREL_A=1"),
                              const_cast<char*>("KESTREL_B=two words"), nullptr};
        execve("/bin/true", argv, envp);
        return 101;
      },
      &status);
  ASSERT_EQ(status, 0);
  close(master);
  close(slave);

  const std::vector<OwnedRecord> got = session->DrainRecords(child);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_EXECVE);
  EXPECT_EQ(got[0].header().flags, 0);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), 0);
  EXPECT_EQ(e.String("exe"), "true");
  EXPECT_EQ(e.StringList("args"), (std::vector<std::string>{"alpha", "beta gamma"}));
  EXPECT_EQ(e.StringList("env"), (std::vector<std::string>{"KESTREL_A=1", "KESTREL_B=two words"}));
  EXPECT_EQ(e.String("filename"), "/bin/true");
  EXPECT_EQ(e.String("trusted_exepath"), RealPath("/bin/true"));
  EXPECT_EQ(e.Int("pid"), child);
  EXPECT_EQ(e.Int("tid"), child);
  EXPECT_EQ(e.Int("ptid"), gettid());
  EXPECT_EQ(e.Int("ppid"), getpid());
  EXPECT_EQ(e.String("comm"), "true");
  EXPECT_EQ(e.StringList("cgroups"), ExpectedCgroups());
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("fdlimit")), FdLimit());
  // The new image's sizes: nothing of it has run, so none is swapped out.
  // vm_rss is the counters' shared part; a fresh image's pages may all
  // still be in per-CPU deltas.
  EXPECT_GT(*e.Int("vm_size"), 0);
  EXPECT_LE(*e.Int("vm_rss"), *e.Int("vm_size"));
  EXPECT_EQ(e.Int("vm_swap"), 0);
  EXPECT_GE(*e.Int("pgft_min"), 0);
  EXPECT_GE(*e.Int("pgft_maj"), 0);
  EXPECT_EQ(e.Int("uid"), 0);
  EXPECT_EQ(e.Int("gid"), 0);
  EXPECT_EQ(e.Int("ruid"), 0);
  EXPECT_EQ(e.Int("rgid"), 0);
  EXPECT_EQ(e.Int("euid"), 0);
  EXPECT_EQ(e.Int("flags"), 1);  // EXE_WRITABLE: CAP_DAC_OVERRIDE
  EXPECT_EQ(e.Int("loginuid"), LoginUid());
  EXPECT_EQ(e.Int("cgroup_id"), static_cast<int64_t>(CgroupId()));
  // Root execing a plain file: permitted = inheritable | bounding set, all
  // effective; inheritable unchanged.
  const uint64_t permitted = ProcCaps("CapInh") | ProcCaps("CapBnd");
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("cap_effective")), permitted);
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("cap_permitted")), permitted);
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("cap_inheritable")), ProcCaps("CapInh"));
  EXPECT_EQ(e.Int("exe_ino"), static_cast<int64_t>(exe.st_ino));
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("exe_ino_ctime")), Nanos(exe.st_ctim));
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("exe_ino_mtime")), Nanos(exe.st_mtim));
  EXPECT_EQ(e.Int("exe_writable"), 1);  // CAP_DAC_OVERRIDE
  EXPECT_EQ(e.Int("exe_memfd"), 0);
  EXPECT_EQ(e.Int("exe_upper_layer"), 0);
  EXPECT_EQ(*e.Int("tty"), KernelDev(tty.st_rdev));
  EXPECT_EQ(e.Int("sid"), child);
  EXPECT_EQ(e.Int("pgid"), child);
  EXPECT_EQ(e.Int("vpgid"), child);  // the host's pid namespace
  EXPECT_EQ(e.String("cwd"), cwd);
}

TEST_F(ProcessEventsTest, ExecveByAnUnprivilegedUserHasNoCapsAndNoWritableExe) {
  auto session = StartAll({SYS_execve});
  ASSERT_NE(session, nullptr);
  int status = 0;
  const pid_t child = RunChild(
      [] {
        if (DropToNobody() != 0) return 100;
        char* const argv[] = {const_cast<char*>("true"), nullptr};
        char* const envp[] = {nullptr};
        execve("/bin/true", argv, envp);
        return 101;
      },
      &status);
  ASSERT_EQ(status, 0);

  const std::vector<OwnedRecord> got = session->DrainRecords(child);
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), 0);
  EXPECT_EQ(e.String("exe"), "true");
  EXPECT_TRUE(e.StringList("args")->empty());
  EXPECT_EQ(e.Int("uid"), kNobody);
  EXPECT_EQ(e.Int("gid"), kNobody);
  EXPECT_EQ(e.Int("ruid"), kNobody);
  EXPECT_EQ(e.Int("rgid"), kNobody);
  EXPECT_EQ(e.Int("flags"), 0);
  EXPECT_EQ(e.Int("euid"), kNobody);
  EXPECT_EQ(e.Int("cap_effective"), 0);
  EXPECT_EQ(e.Int("cap_permitted"), 0);
  EXPECT_EQ(e.Int("exe_writable"), 0);  // root-owned 0755
}

// Execs `path` in a child that first ran `prepare`; returns the child.
pid_t ExecInChild(const std::string& path, const std::function<int()>& prepare) {
  int status = 0;
  const pid_t child = RunChild(
      [&] {
        if (const int err = prepare(); err != 0) return err;
        char* const argv[] = {const_cast<char*>(path.c_str()), nullptr};
        char* const envp[] = {nullptr};
        execve(path.c_str(), argv, envp);
        return 101;
      },
      &status);
  EXPECT_EQ(status, 0) << path;
  return child;
}

TEST_F(ProcessEventsTest, ExecveOfAWorldWritableFileIsWritableForAnyone) {
  ASSERT_EQ(chmod(dir_.path().c_str(), 0755), 0);
  const std::string exe = dir_.path() + "/anyone-may-write";
  CopyFile("/bin/true", exe, 0777);
  auto session = StartAll({SYS_execve});
  ASSERT_NE(session, nullptr);
  const pid_t child = ExecInChild(exe, DropToNobody);
  const std::vector<OwnedRecord> got = session->DrainRecords(child);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Event().Int("uid"), kNobody);
  EXPECT_EQ(got[0].Event().String("trusted_exepath"), RealPath(exe));
  EXPECT_EQ(got[0].Event().Int("exe_writable"), 1);
  EXPECT_EQ(got[0].Event().Int("flags"), 1);  // EXE_WRITABLE
}

TEST_F(ProcessEventsTest, ExecveFromAnOverlayUpperLayerIsFlagged) {
  const std::string d = dir_.path();
  for (const char* sub : {"/lower", "/upper", "/work", "/merged"}) {
    ASSERT_EQ(mkdir((d + sub).c_str(), 0755), 0);
  }
  CopyFile("/bin/true", d + "/lower/image-file", 0755);
  CopyFile("/bin/true", d + "/upper/dropped-file", 0755);
  const std::string opts =
      "lowerdir=" + d + "/lower,upperdir=" + d + "/upper,workdir=" + d + "/work";
  ASSERT_EQ(mount("overlay", (d + "/merged").c_str(), "overlay", 0, opts.c_str()), 0)
      << strerror(errno);
  // Unmounted however the test ends, before TempDir removes the tree.
  struct Unmount {
    std::string path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{d + "/merged"};
  auto session = StartAll({SYS_execve});
  const pid_t lower = ExecInChild(d + "/merged/image-file", [] { return 0; });
  const pid_t upper = ExecInChild(d + "/merged/dropped-file", [] { return 0; });
  std::vector<OwnedRecord> from_lower, from_upper;
  if (session != nullptr) {
    for (OwnedRecord& r : DrainEvery(*session)) {
      const uint32_t tid = r.header().tid;
      if (tid == static_cast<uint32_t>(lower))
        from_lower.push_back(std::move(r));
      else if (tid == static_cast<uint32_t>(upper))
        from_upper.push_back(std::move(r));
    }
  }
  ASSERT_EQ(from_lower.size(), 1u);
  ASSERT_EQ(from_upper.size(), 1u);
  EXPECT_EQ(from_lower[0].Event().String("trusted_exepath"), d + "/merged/image-file");
  EXPECT_EQ(from_lower[0].Event().Int("exe_upper_layer"), 0);
  EXPECT_EQ(from_upper[0].Event().String("trusted_exepath"), d + "/merged/dropped-file");
  EXPECT_EQ(from_upper[0].Event().Int("exe_upper_layer"), 1);
  EXPECT_EQ(*from_upper[0].Event().Int("flags") & 2, 2);  // EXE_UPPER_LAYER
}

TEST_F(ProcessEventsTest, FailedExecveKeepsTheCallersArguments) {
  const std::string missing = dir_.path() + "/no-such-exe";
  char cwd[PATH_MAX];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  auto session = StartSelf({SYS_execve});
  ASSERT_NE(session, nullptr);
  char* const argv[] = {const_cast<char*>("prog"), const_cast<char*>("-x"), nullptr};
  char* const envp[] = {const_cast<char*>("KESTREL_C=3"), nullptr};
  ASSERT_EQ(execve(missing.c_str(), argv, envp), -1);
  ASSERT_EQ(errno, ENOENT);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), -ENOENT);
  EXPECT_EQ(e.String("exe"), "prog");
  EXPECT_EQ(e.StringList("args"), (std::vector<std::string>{"-x"}));
  EXPECT_EQ(e.StringList("env"), (std::vector<std::string>{"KESTREL_C=3"}));
  EXPECT_EQ(e.String("filename"), missing);
  EXPECT_EQ(e.String("trusted_exepath"), "");
  EXPECT_EQ(e.Int("flags"), 0);
  EXPECT_EQ(e.Int("pid"), getpid());
  EXPECT_EQ(e.Int("tid"), gettid());
  EXPECT_EQ(e.Int("ptid"), getppid());  // the runner is single-threaded
  EXPECT_EQ(e.Int("ppid"), getppid());
  EXPECT_EQ(e.String("comm"), Comm());
  EXPECT_EQ(e.StringList("cgroups"), ExpectedCgroups());
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("fdlimit")), FdLimit());
  EXPECT_GT(*e.Int("vm_size"), 0);
  EXPECT_LE(*e.Int("vm_rss"), *e.Int("vm_size"));
  EXPECT_EQ(e.Int("uid"), geteuid());
  EXPECT_EQ(e.Int("gid"), getegid());
  EXPECT_EQ(e.Int("ruid"), getuid());
  EXPECT_EQ(e.Int("rgid"), getgid());
  EXPECT_EQ(e.Int("euid"), geteuid());
  EXPECT_EQ(e.Int("loginuid"), LoginUid());
  EXPECT_EQ(e.Int("cgroup_id"), static_cast<int64_t>(CgroupId()));
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("cap_effective")), ProcCaps("CapEff"));
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("cap_permitted")), ProcCaps("CapPrm"));
  EXPECT_EQ(static_cast<uint64_t>(*e.Int("cap_inheritable")), ProcCaps("CapInh"));
  EXPECT_EQ(e.Int("exe_ino"), 0);
  EXPECT_EQ(e.Int("exe_ino_ctime"), 0);
  EXPECT_EQ(e.Int("exe_ino_mtime"), 0);
  EXPECT_EQ(e.Int("exe_writable"), 0);
  EXPECT_EQ(e.Int("exe_memfd"), 0);
  EXPECT_EQ(e.Int("exe_upper_layer"), 0);
  EXPECT_EQ(e.Int("sid"), getsid(0));
  EXPECT_EQ(e.Int("pgid"), getpgid(0));
  EXPECT_EQ(e.Int("vpgid"), getpgid(0));
  EXPECT_EQ(e.String("cwd"), std::string(cwd));
}

TEST_F(ProcessEventsTest, ExecveatOfAMemfdIsFlagged) {
  const int src = open("/bin/true", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(src, 0);
  const int memfd = memfd_create("kestrel-exe", 0);
  ASSERT_GE(memfd, 0);
  char buf[1 << 16];
  for (ssize_t n; (n = read(src, buf, sizeof(buf))) > 0;) ASSERT_EQ(write(memfd, buf, n), n);
  close(src);
  struct stat st {};
  ASSERT_EQ(fstat(memfd, &st), 0);
  // This kernel reports a successful execveat with the execve syscall id at
  // exit, so its record is an EXECVE one; both are selected and the exec
  // facts checked whichever comes. The EXECVEAT record's own dirfd and
  // flags are checked by the failing execveat tests below, which always
  // produce one.
  auto session = StartAll({SYS_execve, SYS_execveat});
  ASSERT_NE(session, nullptr);

  int status = 0;
  const pid_t child = RunChild(
      [&] {
        char* const argv[] = {const_cast<char*>("fileless"), nullptr};
        char* const envp[] = {nullptr};
        syscall(SYS_execveat, memfd, "", argv, envp, AT_EMPTY_PATH);
        return 101;
      },
      &status);
  ASSERT_EQ(status, 0);
  close(memfd);

  const std::vector<OwnedRecord> got = session->DrainRecords(child);
  ASSERT_EQ(got.size(), 1u);
  const uint16_t type = got[0].header().type;
  ASSERT_TRUE(type == KESTREL_EVT_EXECVE || type == KESTREL_EVT_EXECVEAT) << type;
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), 0);
  EXPECT_EQ(e.String("trusted_exepath"), "memfd:kestrel-exe");
  EXPECT_EQ(e.String("exe"), "fileless");
  EXPECT_TRUE(e.StringList("args")->empty());
  EXPECT_EQ(*e.Int("flags") & 4, 4);  // EXE_FROM_MEMFD
  EXPECT_EQ(e.Int("pid"), child);
  EXPECT_EQ(e.Int("exe_memfd"), 1);
  EXPECT_EQ(e.Int("exe_ino"), static_cast<int64_t>(st.st_ino));
  EXPECT_EQ(e.Int("exe_upper_layer"), 0);
}

TEST_F(ProcessEventsTest, FailedExecveatKeepsTheRelativeName) {
  auto session = StartSelf({SYS_execveat});
  ASSERT_NE(session, nullptr);
  const char* const argv[] = {"x", nullptr};
  const char* const envp[] = {nullptr};
  ASSERT_EQ(syscall(SYS_execveat, AT_FDCWD, "kestrel-no-such-exe", argv, envp, AT_SYMLINK_NOFOLLOW),
            -1);
  ASSERT_EQ(errno, ENOENT);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].header().type, KESTREL_EVT_EXECVEAT);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), -ENOENT);
  EXPECT_EQ(e.Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(e.Int("at_flags"), AT_SYMLINK_NOFOLLOW);
  EXPECT_EQ(e.Int("flags"), 0);
  EXPECT_EQ(e.String("filename"), "kestrel-no-such-exe");
  EXPECT_EQ(e.String("exe"), "x");
  EXPECT_TRUE(e.StringList("args")->empty());
  EXPECT_EQ(e.Int("pid"), getpid());
  EXPECT_EQ(e.Int("exe_ino"), 0);
}

// A real directory fd and AT_EMPTY_PATH: both reach the record as passed.
TEST_F(ProcessEventsTest, FailedExecveatRecordsItsDirfdAndFlags) {
  const int dirfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dirfd, 0);
  auto session = StartSelf({SYS_execveat});
  ASSERT_NE(session, nullptr);
  const char* const argv[] = {"y", nullptr};
  const char* const envp[] = {nullptr};
  const long rc = syscall(SYS_execveat, dirfd, "kestrel-no-such-exe", argv, envp, AT_EMPTY_PATH);
  const int error = errno;
  close(dirfd);
  ASSERT_EQ(rc, -1);
  ASSERT_EQ(error, ENOENT);

  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].header().type, KESTREL_EVT_EXECVEAT);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), -ENOENT);
  EXPECT_EQ(e.Int("dirfd"), dirfd);
  EXPECT_EQ(e.Int("at_flags"), AT_EMPTY_PATH);
  EXPECT_EQ(e.String("exe"), "y");
}

// ---- clone family --------------------------------------------------------

// The records of one successful clone-family call: the caller's, then the
// child's own return, then whatever the child did next (a getppid).
struct CloneRecords {
  std::vector<OwnedRecord> caller;
  std::vector<OwnedRecord> child;
  bool caller_first_in_ring_order = false;
};

// Drains everything and keeps the records of `caller` and `child`.
CloneRecords CollectClone(ProbeSession& session, uint32_t caller, uint32_t child) {
  CloneRecords r;
  bool seen_child = false;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(session.handle(), &record, &ring), 0);
    if (record == nullptr) break;
    const auto* h = static_cast<const kestrel_record_header*>(record);
    if (h->tid == caller) {
      if (r.caller.empty()) r.caller_first_in_ring_order = !seen_child;
      r.caller.emplace_back(h);
    } else if (h->tid == child) {
      seen_child = true;
      r.child.emplace_back(h);
    }
  }
  return r;
}

// Checks one successful clone-family call. The child's return and its
// getppid must come after the caller's record in timestamp and ring order.
void ExpectCloneOrdered(const CloneRecords& r, uint16_t type, pid_t child_tid, pid_t child_pid) {
  ASSERT_EQ(r.caller.size(), 1u);
  ASSERT_EQ(r.child.size(), 2u);
  EXPECT_EQ(r.caller[0].header().type, type);
  const std::vector<std::string> cmdline = CmdLine();
  const std::vector<std::string> args(cmdline.begin() + 1, cmdline.end());
  char cwd[PATH_MAX];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  // The caller's record: the caller's own facts (as Falco), and the child.
  const engine::DecodedEvent c = r.caller[0].Event();
  EXPECT_EQ(c.Int("res"), child_tid);
  EXPECT_EQ(c.String("exe"), cmdline[0]);
  EXPECT_EQ(c.StringList("args"), args);
  EXPECT_EQ(c.Int("tid"), CurrentTid());
  EXPECT_EQ(c.Int("pid"), getpid());
  // Not getppid(): the session traces it, and the next round would see it.
  EXPECT_EQ(c.Int("ptid"), ParentFromProc());  // the runner is single-threaded
  EXPECT_EQ(c.String("cwd"), "");              // in the caller's thread-table entry
  EXPECT_EQ(static_cast<uint64_t>(*c.Int("fdlimit")), FdLimit());
  EXPECT_GT(*c.Int("vm_size"), 0);
  EXPECT_LE(*c.Int("vm_rss"), *c.Int("vm_size"));
  EXPECT_GT(*c.Int("pgft_min"), 0);
  EXPECT_EQ(c.String("comm"), Comm());
  EXPECT_EQ(c.StringList("cgroups"), ExpectedCgroups());
  EXPECT_EQ(c.Int("uid"), geteuid());
  EXPECT_EQ(c.Int("gid"), getegid());
  EXPECT_EQ(c.Int("vtid"), CurrentTid());
  EXPECT_EQ(c.Int("vpid"), getpid());
  EXPECT_EQ(c.Int("pidns_init_start_ts"), 0);
  EXPECT_EQ(c.Int("child_tid"), child_tid);
  EXPECT_EQ(c.Int("child_pid"), child_pid);
  EXPECT_EQ(c.Int("child_vtid"), child_tid);
  EXPECT_EQ(c.Int("child_vpid"), child_pid);
  // The child's own return: its own facts.
  EXPECT_EQ(r.child[0].header().type, type);
  const engine::DecodedEvent k = r.child[0].Event();
  EXPECT_EQ(k.Int("res"), 0);
  EXPECT_EQ(k.String("exe"), cmdline[0]);
  EXPECT_EQ(k.StringList("args"), args);
  EXPECT_EQ(k.Int("tid"), child_tid);
  EXPECT_EQ(k.Int("pid"), child_pid);
  EXPECT_EQ(k.Int("ptid"), CurrentTid());
  EXPECT_EQ(k.String("cwd"), std::string(cwd));
  EXPECT_EQ(static_cast<uint64_t>(*k.Int("fdlimit")), FdLimit());
  EXPECT_EQ(k.String("comm"), Comm());
  EXPECT_EQ(k.StringList("cgroups"), ExpectedCgroups());
  EXPECT_EQ(k.Int("uid"), geteuid());
  EXPECT_EQ(k.Int("gid"), getegid());
  EXPECT_EQ(k.Int("vtid"), child_tid);
  EXPECT_EQ(k.Int("vpid"), child_pid);
  const int64_t tick_ns = 1'000'000'000 / sysconf(_SC_CLK_TCK);
  EXPECT_NEAR(*k.Int("pidns_init_start_ts") / tick_ns, InitStartTicks(), 1);
  EXPECT_EQ(k.Int("child_tid"), 0);
  EXPECT_EQ(k.Int("child_pid"), 0);
  EXPECT_EQ(k.Int("child_vtid"), 0);
  EXPECT_EQ(k.Int("child_vpid"), 0);
  EXPECT_EQ(r.child[1].header().type, KESTREL_EVT_GENERIC_SYSCALL);
  EXPECT_TRUE(r.caller_first_in_ring_order);
  for (const OwnedRecord& c : r.child) EXPECT_LT(r.caller[0].header().ts_ns, c.header().ts_ns);
}

// A child that may not fork calls `make` (fork or vfork): one record of its
// own, EAGAIN, no child.
void ExpectFailedFork(uint32_t syscall_id, uint16_t type, pid_t (*make)()) {
  auto session = ProbeSession::Start({.syscalls = {syscall_id}, .trace_only_this_process = false});
  ASSERT_NE(session, nullptr);
  int status = 0;
  const pid_t child = RunChild(
      [make] {
        if (const int err = ForbidForks(); err != 0) return err;
        return make() == -1 && errno == EAGAIN ? 0 : 102;
      },
      &status);
  ASSERT_EQ(status, 0);
  const std::vector<OwnedRecord> got = session->DrainRecords(child);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header().type, type);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), -EAGAIN);
  EXPECT_EQ(e.Int("tid"), child);
  EXPECT_EQ(e.Int("pid"), child);
  EXPECT_EQ(e.Int("ptid"), CurrentTid());
  EXPECT_EQ(e.Int("uid"), kNobody);
  EXPECT_EQ(e.Int("gid"), kNobody);
  EXPECT_EQ(e.Int("flags"), 0);
  EXPECT_EQ(e.Int("pidns_init_start_ts"), 0);
  EXPECT_EQ(e.Int("child_tid"), 0);
  EXPECT_EQ(e.Int("child_pid"), 0);
}

// Makes a child with `make` (a fork-like syscall, not vfork: its child
// must not return from here); the child makes one getppid and exits.
// Returns the records of the caller and of the child, whose pid is put in
// `child`.
CloneRecords ForkAndCollect(ProbeSession& session, const std::function<long()>& make,
                            pid_t* child) {
  *child = static_cast<pid_t>(make());
  if (*child == 0) {
    syscall(SYS_getppid);
    _exit(0);
  }
  EXPECT_GT(*child, 0);
  int status = 0;
  EXPECT_EQ(waitpid(*child, &status, 0), *child);
  return CollectClone(session, CurrentTid(), *child);
}

constexpr int kCloneRounds = 20;

TEST_F(ProcessEventsTest, ForkCallerRecordPrecedesTheChild) {
  auto session = StartAll({SYS_fork, SYS_getppid});
  ASSERT_NE(session, nullptr);
  // Repeated: the child usually runs first on the other CPU.
  for (int round = 0; round < kCloneRounds; ++round) {
    pid_t child = 0;
    const CloneRecords r = ForkAndCollect(
        *session, [] { return syscall(SYS_fork); }, &child);
    ExpectCloneOrdered(r, KESTREL_EVT_FORK, child, child);
  }
}

TEST_F(ProcessEventsTest, FailedForkHasNoChild) {
  ExpectFailedFork(SYS_fork, KESTREL_EVT_FORK,
                   [] { return static_cast<pid_t>(syscall(SYS_fork)); });
}

TEST_F(ProcessEventsTest, VforkCallerRecordPrecedesTheChild) {
  auto session = StartAll({SYS_vfork, SYS_getppid});
  ASSERT_NE(session, nullptr);
  const pid_t child = vfork();
  if (child == 0) {
    syscall(SYS_getppid);
    _exit(0);
  }
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ExpectCloneOrdered(CollectClone(*session, CurrentTid(), child), KESTREL_EVT_VFORK, child, child);
}

TEST_F(ProcessEventsTest, FailedVforkHasNoChild) {
  ExpectFailedFork(SYS_vfork, KESTREL_EVT_VFORK, [] { return vfork(); });
}

TEST_F(ProcessEventsTest, CloneReportsFlagsAndPrecedesTheChild) {
  auto session = StartAll({SYS_clone, SYS_getppid});
  ASSERT_NE(session, nullptr);
  for (int round = 0; round < kCloneRounds; ++round) {
    pid_t child = 0;
    const CloneRecords r = ForkAndCollect(
        *session, [] { return syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0); }, &child);
    ExpectCloneOrdered(r, KESTREL_EVT_CLONE, child, child);
    ASSERT_EQ(r.caller.size(), 1u);
    EXPECT_EQ(r.caller[0].Event().Int("flags"), SIGCHLD);
  }
}

TEST_F(ProcessEventsTest, FailedCloneReportsFlags) {
  auto session = StartSelf({SYS_clone});
  ASSERT_NE(session, nullptr);
  // CLONE_SIGHAND needs CLONE_VM.
  ASSERT_EQ(syscall(SYS_clone, CLONE_SIGHAND | SIGCHLD, 0, 0, 0, 0), -1);
  ASSERT_EQ(errno, EINVAL);
  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[0].Event().Int("flags"), CLONE_SIGHAND | SIGCHLD);
  EXPECT_EQ(got[0].Event().Int("tid"), CurrentTid());
  EXPECT_EQ(got[0].Event().Int("child_tid"), 0);
  EXPECT_EQ(got[0].Event().Int("child_pid"), 0);
}

TEST_F(ProcessEventsTest, Clone3ReportsFlagsSizeAndPrecedesTheChild) {
  auto session = StartAll({SYS_clone3, SYS_getppid});
  ASSERT_NE(session, nullptr);
  clone_args args{};
  args.exit_signal = SIGCHLD;
  pid_t child = 0;
  const CloneRecords r = ForkAndCollect(
      *session, [&] { return syscall(SYS_clone3, &args, sizeof(args)); }, &child);
  ExpectCloneOrdered(r, KESTREL_EVT_CLONE3, child, child);
  ASSERT_EQ(r.caller.size(), 1u);
  EXPECT_EQ(r.caller[0].Event().Int("flags"), 0);
  EXPECT_EQ(r.caller[0].Event().Int("size"), static_cast<int64_t>(sizeof(args)));
}

TEST_F(ProcessEventsTest, Clone3OfAThreadReportsTheCallersProcess) {
  auto session = StartSelf({SYS_clone3});
  ASSERT_NE(session, nullptr);
  pid_t thread_tid = 0;
  std::thread t([&] { thread_tid = gettid(); });  // glibc makes threads with clone3
  t.join();
  const std::vector<OwnedRecord> caller = session->DrainRecords(CurrentTid());
  ASSERT_EQ(caller.size(), 1u);
  const engine::DecodedEvent e = caller[0].Event();
  EXPECT_EQ(e.Int("res"), thread_tid);
  EXPECT_EQ(e.Int("child_tid"), thread_tid);
  EXPECT_EQ(e.Int("child_pid"), getpid());
  EXPECT_EQ(e.Int("child_vtid"), thread_tid);
  EXPECT_EQ(e.Int("child_vpid"), getpid());
  const int64_t flags = *e.Int("flags");
  EXPECT_EQ(flags & (CLONE_VM | CLONE_THREAD | CLONE_SIGHAND),
            CLONE_VM | CLONE_THREAD | CLONE_SIGHAND);
}

TEST_F(ProcessEventsTest, FailedClone3ReportsFlagsAndSize) {
  auto session = StartSelf({SYS_clone3});
  ASSERT_NE(session, nullptr);
  clone_args args{};
  args.flags = CLONE_FS;
  // Smaller than the first published struct: EINVAL before any fork.
  ASSERT_EQ(syscall(SYS_clone3, &args, 8), -1);
  ASSERT_EQ(errno, EINVAL);
  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), -EINVAL);
  EXPECT_EQ(e.Int("size"), 8);
  EXPECT_EQ(e.Int("flags"), CLONE_FS);
  EXPECT_EQ(e.Int("child_pid"), 0);
  EXPECT_EQ(e.Int("vpid"), getpid());
}

// ---- credentials, namespaces, signals, directories -----------------------

// Runs `body` in a child traced for `syscalls` and returns the child's
// records. Credential changes stay out of the test process that way.
std::vector<OwnedRecord> ChildRecords(ProbeSession& session, const std::function<int()>& body) {
  int status = 0;
  const pid_t child = RunChild(body, &status);
  EXPECT_EQ(status, 0);
  return session.DrainRecords(child);
}

TEST_F(ProcessEventsTest, SetuidAndSetgid) {
  auto session = StartAll({SYS_setuid, SYS_setgid});
  ASSERT_NE(session, nullptr);
  const std::vector<OwnedRecord> got = ChildRecords(*session, [] {
    if (syscall(SYS_setgid, 1234) != 0 || syscall(SYS_setuid, 4321) != 0) return 100;
    // Unprivileged now: back to root is refused.
    return syscall(SYS_setuid, 0) == -1 && syscall(SYS_setgid, 0) == -1 ? 0 : 101;
  });
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_SETGID);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("gid"), 1234);
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_SETUID);
  EXPECT_EQ(got[1].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("uid"), 4321);
  EXPECT_EQ(got[2].Event().Int("res"), -EPERM);
  EXPECT_EQ(got[2].Event().Int("uid"), 0);
  EXPECT_EQ(got[3].header().type, KESTREL_EVT_SETGID);
  EXPECT_EQ(got[3].Event().Int("res"), -EPERM);
  EXPECT_EQ(got[3].Event().Int("gid"), 0);
}

TEST_F(ProcessEventsTest, SetreuidSetresuidSetresgid) {
  auto session = StartAll({SYS_setreuid, SYS_setresuid, SYS_setresgid});
  ASSERT_NE(session, nullptr);
  const std::vector<OwnedRecord> got = ChildRecords(*session, [] {
    if (syscall(SYS_setresgid, 11, 12, 13) != 0) return 100;
    if (syscall(SYS_setreuid, 21, 22) != 0) return 101;
    if (syscall(SYS_setresuid, 31, 32, 33) != -1) return 102;  // no longer privileged
    return 0;
  });
  ASSERT_EQ(got.size(), 3u);
  const engine::DecodedEvent g = got[0].Event();
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_SETRESGID);
  EXPECT_EQ(g.Int("res"), 0);
  EXPECT_EQ(g.Int("rgid"), 11);
  EXPECT_EQ(g.Int("egid"), 12);
  EXPECT_EQ(g.Int("sgid"), 13);
  const engine::DecodedEvent r = got[1].Event();
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_SETREUID);
  EXPECT_EQ(r.Int("res"), 0);
  EXPECT_EQ(r.Int("ruid"), 21);
  EXPECT_EQ(r.Int("euid"), 22);
  const engine::DecodedEvent u = got[2].Event();
  EXPECT_EQ(got[2].header().type, KESTREL_EVT_SETRESUID);
  EXPECT_EQ(u.Int("res"), -EPERM);
  EXPECT_EQ(u.Int("ruid"), 31);
  EXPECT_EQ(u.Int("euid"), 32);
  EXPECT_EQ(u.Int("suid"), 33);
}

TEST_F(ProcessEventsTest, UnshareAndSetns) {
  auto session = StartAll({SYS_unshare, SYS_setns});
  ASSERT_NE(session, nullptr);
  const std::vector<OwnedRecord> got = ChildRecords(*session, [] {
    // A known fd number: the child inherits the test runner's fds.
    const int ns = dup2(open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC), kChildFd);
    if (ns < 0 || syscall(SYS_unshare, CLONE_NEWUTS) != 0) return 100;
    if (syscall(SYS_setns, ns, CLONE_NEWUTS) != 0) return 101;
    if (syscall(SYS_setns, ns, CLONE_NEWNET) != -1) return 102;  // wrong type
    if (syscall(SYS_unshare, CLONE_NEWPID | CLONE_VFORK) != -1) return 103;
    return 0;
  });
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_UNSHARE);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("flags"), CLONE_NEWUTS);
  EXPECT_EQ(got[1].header().type, KESTREL_EVT_SETNS);
  EXPECT_EQ(got[1].Event().Int("res"), 0);
  EXPECT_EQ(got[1].Event().Int("fd"), kChildFd);
  EXPECT_EQ(got[1].Event().Int("nstype"), CLONE_NEWUTS);
  EXPECT_EQ(got[2].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[2].Event().Int("nstype"), CLONE_NEWNET);
  EXPECT_EQ(got[3].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[3].Event().Int("flags"), CLONE_NEWPID | CLONE_VFORK);
}

TEST_F(ProcessEventsTest, Prctl) {
  auto session = StartSelf({SYS_prctl});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1);
  ASSERT_EQ(prctl(PR_SET_DUMPABLE, 7, 0, 0, 0), -1);
  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent a = got[0].Event();
  EXPECT_EQ(a.Int("res"), 1);
  EXPECT_EQ(a.Int("option"), PR_GET_DUMPABLE);
  EXPECT_EQ(a.Int("arg2_int"), 0);
  const engine::DecodedEvent b = got[1].Event();
  EXPECT_EQ(b.Int("res"), -EINVAL);
  EXPECT_EQ(b.Int("option"), PR_SET_DUMPABLE);
  EXPECT_EQ(b.Int("arg2_int"), 7);
  EXPECT_EQ(b.Int("arg3"), 0);
  EXPECT_EQ(b.Int("arg4"), 0);
  EXPECT_EQ(b.Int("arg5"), 0);
  // Only PR_SET_NAME and PR_GET_NAME carry a name.
  EXPECT_TRUE(a.Raw("arg2_str").empty());
  EXPECT_TRUE(b.Raw("arg2_str").empty());
}

// PR_SET_NAME's record carries the name the kernel stored (truncated to
// 15 bytes), so the stream alone says what the thread is called afterwards.
TEST_F(ProcessEventsTest, PrctlSetNameCarriesTheStoredName) {
  char before[16] = {};
  ASSERT_EQ(prctl(PR_GET_NAME, before, 0, 0, 0), 0);
  auto session = StartSelf({SYS_prctl});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(prctl(PR_SET_NAME, "kestrel-renamed-thread", 0, 0, 0), 0);
  ASSERT_EQ(prctl(PR_SET_NAME, before, 0, 0, 0), 0);
  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("option"), PR_SET_NAME);
  EXPECT_EQ(got[0].Event().String("arg2_str"), "kestrel-renamed");
  EXPECT_EQ(got[1].Event().String("arg2_str"), std::string(before));
}

TEST_F(ProcessEventsTest, Ptrace) {
  auto session = StartSelf({SYS_ptrace});
  ASSERT_NE(session, nullptr);
  const pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  ASSERT_GT(child, 0);
  ASSERT_EQ(ptrace(PTRACE_SEIZE, child, nullptr, nullptr), 0);
  ASSERT_EQ(ptrace(PTRACE_PEEKUSER, 1, 8, nullptr), -1);  // init is not ours
  const int peek_err = errno;
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent a = got[0].Event();
  EXPECT_EQ(a.Int("res"), 0);
  EXPECT_EQ(a.Int("request"), PTRACE_SEIZE);
  EXPECT_EQ(a.Int("pid"), child);
  EXPECT_EQ(a.Int("addr"), 0);
  EXPECT_EQ(a.Int("data"), 0);
  const engine::DecodedEvent b = got[1].Event();
  EXPECT_EQ(b.Int("res"), -peek_err);
  EXPECT_EQ(b.Int("request"), PTRACE_PEEKUSER);
  EXPECT_EQ(b.Int("pid"), 1);
  EXPECT_EQ(b.Int("addr"), 8);
}

TEST_F(ProcessEventsTest, KillTkillTgkill) {
  auto session = StartSelf({SYS_kill, SYS_tkill, SYS_tgkill});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(syscall(SYS_kill, getpid(), 0), 0);
  ASSERT_EQ(syscall(SYS_kill, getpid(), 1000), -1);
  ASSERT_EQ(syscall(SYS_tkill, gettid(), 0), 0);
  ASSERT_EQ(syscall(SYS_tkill, -5, SIGTERM), -1);
  ASSERT_EQ(syscall(SYS_tgkill, getpid(), gettid(), 0), 0);
  ASSERT_EQ(syscall(SYS_tgkill, getpid(), INT_MAX, SIGUSR1), -1);
  const std::vector<OwnedRecord> got = session->DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_KILL);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().Int("pid"), getpid());
  EXPECT_EQ(got[0].Event().Int("sig"), 0);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("sig"), 1000);
  EXPECT_EQ(got[2].header().type, KESTREL_EVT_TKILL);
  EXPECT_EQ(got[2].Event().Int("res"), 0);
  EXPECT_EQ(got[2].Event().Int("tid"), gettid());
  EXPECT_EQ(got[3].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[3].Event().Int("tid"), -5);
  EXPECT_EQ(got[3].Event().Int("sig"), SIGTERM);
  EXPECT_EQ(got[4].header().type, KESTREL_EVT_TGKILL);
  EXPECT_EQ(got[4].Event().Int("res"), 0);
  EXPECT_EQ(got[4].Event().Int("pid"), getpid());
  EXPECT_EQ(got[4].Event().Int("tid"), gettid());
  EXPECT_EQ(got[5].Event().Int("res"), -ESRCH);
  EXPECT_EQ(got[5].Event().Int("tid"), INT_MAX);
  EXPECT_EQ(got[5].Event().Int("sig"), SIGUSR1);
}

TEST_F(ProcessEventsTest, Capset) {
  auto session = StartAll({SYS_capset});
  ASSERT_NE(session, nullptr);
  constexpr uint64_t kKeep = 1ULL << CAP_NET_BIND_SERVICE | 1ULL << CAP_SETUID;
  const std::vector<OwnedRecord> got = ChildRecords(*session, [] {
    __user_cap_header_struct h{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct d[2]{};
    d[0].effective = d[0].permitted = static_cast<uint32_t>(kKeep);
    if (syscall(SYS_capset, &h, d) != 0) return 100;
    // Permitted cannot grow back.
    d[0].permitted = d[0].effective = ~0U;
    d[1].inheritable = 1;
    return syscall(SYS_capset, &h, d) == -1 ? 0 : 101;
  });
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent a = got[0].Event();
  EXPECT_EQ(a.Int("res"), 0);
  EXPECT_EQ(a.Int("cap_effective"), static_cast<int64_t>(kKeep));
  EXPECT_EQ(a.Int("cap_permitted"), static_cast<int64_t>(kKeep));
  EXPECT_EQ(a.Int("cap_inheritable"), 0);
  const engine::DecodedEvent b = got[1].Event();
  EXPECT_EQ(b.Int("res"), -EPERM);
  EXPECT_EQ(b.Int("cap_effective"), 0xffffffffLL);
  EXPECT_EQ(b.Int("cap_permitted"), 0xffffffffLL);
  EXPECT_EQ(b.Int("cap_inheritable"), 1LL << 32);
}

TEST_F(ProcessEventsTest, ChrootChdirFchdir) {
  const std::string dir = dir_.path();
  const std::string missing = dir + "/missing";
  auto session = StartAll({SYS_chroot, SYS_chdir, SYS_fchdir});
  ASSERT_NE(session, nullptr);
  const std::vector<OwnedRecord> got = ChildRecords(*session, [&] {
    const int fd = dup2(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), kChildFd);
    if (fd < 0) return 100;
    if (syscall(SYS_chdir, dir.c_str()) != 0 || syscall(SYS_chdir, missing.c_str()) != -1)
      return 101;
    if (syscall(SYS_fchdir, fd) != 0 || syscall(SYS_fchdir, -1) != -1) return 102;
    if (syscall(SYS_chroot, dir.c_str()) != 0 || syscall(SYS_chroot, "/missing") != -1) return 103;
    return 0;
  });
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_CHDIR);
  EXPECT_EQ(got[0].Event().Int("res"), 0);
  EXPECT_EQ(got[0].Event().String("path"), dir);
  EXPECT_EQ(got[1].Event().Int("res"), -ENOENT);
  EXPECT_EQ(got[1].Event().String("path"), missing);
  EXPECT_EQ(got[2].header().type, KESTREL_EVT_FCHDIR);
  EXPECT_EQ(got[2].Event().Int("res"), 0);
  EXPECT_EQ(got[2].Event().Int("fd"), kChildFd);
  EXPECT_EQ(got[3].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[3].Event().Int("fd"), -1);
  EXPECT_EQ(got[4].header().type, KESTREL_EVT_CHROOT);
  EXPECT_EQ(got[4].Event().Int("res"), 0);
  EXPECT_EQ(got[4].Event().String("path"), dir);
  EXPECT_EQ(got[5].Event().Int("res"), -ENOENT);
  EXPECT_EQ(got[5].Event().String("path"), "/missing");
}

// ---- process exit ----------------------------------------------------------

TEST_F(ProcessEventsTest, ProcessExitReportsCodeAndSignal) {
  auto session = StartAll({SYS_exit_group});
  ASSERT_NE(session, nullptr);
  int status = 0;
  const pid_t exited = RunChild([] { return 42; }, &status);
  ASSERT_TRUE(WIFEXITED(status));

  const std::vector<OwnedRecord> a = session->DrainRecords(exited);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].header().type, KESTREL_EVT_PROCESS_EXIT);
  EXPECT_EQ(a[0].header().tgid, static_cast<uint32_t>(exited));
  EXPECT_EQ(a[0].Event().Int("status"), 42 << 8);
  EXPECT_EQ(a[0].Event().Int("ret"), 42);
  EXPECT_EQ(a[0].Event().Int("sig"), 0);
  EXPECT_EQ(a[0].Event().Int("core"), 0);
  EXPECT_EQ(a[0].Event().Int("reaper_tid"), 0);  // no children
  EXPECT_EQ(a[0].Event().Int("group_dead"), 1);
}

TEST_F(ProcessEventsTest, ProcessExitBySignalAndOfAThread) {
  auto session = StartAll({SYS_exit});
  ASSERT_NE(session, nullptr);
  const pid_t killed = fork();
  if (killed == 0) {
    raise(SIGTERM);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(killed, &status, 0), killed);
  ASSERT_TRUE(WIFSIGNALED(status));
  pid_t thread_tid = 0;
  std::thread t([&] { thread_tid = gettid(); });
  t.join();

  std::vector<OwnedRecord> k, th;
  for (OwnedRecord& r : DrainEvery(*session)) {
    const uint32_t tid = r.header().tid;
    if (tid == static_cast<uint32_t>(killed))
      k.push_back(std::move(r));
    else if (tid == static_cast<uint32_t>(thread_tid))
      th.push_back(std::move(r));
  }
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].Event().Int("status"), SIGTERM);
  EXPECT_EQ(k[0].Event().Int("ret"), 0);
  EXPECT_EQ(k[0].Event().Int("sig"), SIGTERM);
  EXPECT_EQ(k[0].Event().Int("core"), 0);
  EXPECT_EQ(k[0].Event().Int("reaper_tid"), 0);
  EXPECT_EQ(k[0].Event().Int("group_dead"), 1);
  // A thread leaving on its own: exit(0), and the process lives on.
  ASSERT_EQ(th.size(), 1u);
  EXPECT_EQ(th[0].header().tgid, static_cast<uint32_t>(getpid()));
  EXPECT_EQ(th[0].Event().Int("status"), 0);
  EXPECT_EQ(th[0].Event().Int("ret"), 0);
  EXPECT_EQ(th[0].Event().Int("sig"), 0);
  EXPECT_EQ(th[0].Event().Int("reaper_tid"), 0);
  EXPECT_EQ(th[0].Event().Int("group_dead"), 0);
}

// A process that leaves a child behind: the child is orphaned and goes to
// the nearest child subreaper, this test process, whose tid reaper_tid
// names.
TEST_F(ProcessEventsTest, ProcessExitNamesTheSubreaperThatAdoptsTheOrphans) {
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
  int pipe_fds[2];
  ASSERT_EQ(pipe2(pipe_fds, O_CLOEXEC), 0);
  auto session = StartAll({SYS_exit_group});
  ASSERT_NE(session, nullptr);
  const pid_t middle = fork();
  if (middle == 0) {
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      // Waits until the test has seen its parent go, then leaves.
      char c;
      close(pipe_fds[1]);
      _exit(read(pipe_fds[0], &c, 1) == 0 ? 0 : 1);
    }
    _exit(grandchild > 0 ? 7 : 100);
  }
  ASSERT_GT(middle, 0);
  close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(middle, &status, 0), middle);
  ASSERT_EQ(WEXITSTATUS(status), 7);
  close(pipe_fds[1]);  // the grandchild, now ours, may leave
  const pid_t grandchild = wait(&status);
  ASSERT_GT(grandchild, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0), 0);

  const std::vector<OwnedRecord> m = session->DrainRecords(middle);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].header().type, KESTREL_EVT_PROCESS_EXIT);
  EXPECT_EQ(m[0].Event().Int("ret"), 7);
  EXPECT_EQ(m[0].Event().Int("reaper_tid"), CurrentTid());
  EXPECT_EQ(m[0].Event().Int("group_dead"), 1);
}

// The first process of a new pid namespace is its pid 1 (vtid and vpid 1,
// host ids in tid and pid), and with no subreaper inside, it adopts the
// orphans of its namespace: reaper_tid names it by its host id.
TEST_F(ProcessEventsTest, CloneNewPidChildIsInitOfItsNamespaceAndReapsOrphans) {
  int pipe_fds[2];
  ASSERT_EQ(pipe2(pipe_fds, O_CLOEXEC), 0);
  auto session = StartAll({SYS_clone, SYS_exit_group});
  ASSERT_NE(session, nullptr);
  const long init = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
  if (init == 0) {
    // pid 1 of the new namespace: a middle process leaves a grandchild
    // behind, which init adopts and reaps once the pipe closes.
    const pid_t middle = fork();
    if (middle == 0) {
      if (fork() == 0) {
        char c;
        close(pipe_fds[1]);
        _exit(read(pipe_fds[0], &c, 1) == 0 ? 0 : 1);
      }
      _exit(7);
    }
    int st = 0;
    if (waitpid(middle, &st, 0) != middle || WEXITSTATUS(st) != 7) _exit(100);
    close(pipe_fds[1]);
    if (wait(&st) <= 0 || WEXITSTATUS(st) != 0) _exit(101);
    _exit(getpid() == 1 ? 0 : 102);
  }
  ASSERT_GT(init, 0);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  int status = 0;
  ASSERT_EQ(waitpid(static_cast<pid_t>(init), &status, 0), init);
  ASSERT_EQ(WEXITSTATUS(status), 0);

  // The middle process is known by init's fork of it (res is its id in
  // the new namespace, child_tid its host id).
  std::vector<OwnedRecord> caller, init_return, middle_exit;
  int64_t middle = -1;
  for (OwnedRecord& r : DrainEvery(*session)) {
    const kestrel_record_header& h = r.header();
    if (h.type == KESTREL_EVT_CLONE && h.tid == static_cast<uint32_t>(CurrentTid())) {
      caller.push_back(std::move(r));
    } else if (h.type == KESTREL_EVT_CLONE && h.tid == static_cast<uint32_t>(init)) {
      const engine::DecodedEvent e = r.Event();
      if (e.Int("res") == 0) {
        init_return.push_back(std::move(r));
      } else if (middle < 0) {
        EXPECT_EQ(e.Int("res"), 2);
        EXPECT_EQ(e.Int("child_vpid"), 2);
        middle = *e.Int("child_tid");
      }
    } else if (h.type == KESTREL_EVT_PROCESS_EXIT && static_cast<int64_t>(h.tid) == middle) {
      middle_exit.push_back(std::move(r));
    }
  }
  ASSERT_EQ(caller.size(), 1u);
  const engine::DecodedEvent c = caller[0].Event();
  EXPECT_EQ(c.Int("res"), init);
  EXPECT_EQ(c.Int("flags"), CLONE_NEWPID | SIGCHLD);
  EXPECT_EQ(c.Int("child_tid"), init);
  EXPECT_EQ(c.Int("child_pid"), init);
  EXPECT_EQ(c.Int("child_vtid"), 1);
  EXPECT_EQ(c.Int("child_vpid"), 1);
  EXPECT_EQ(c.Int("vtid"), CurrentTid());
  EXPECT_EQ(c.Int("vpid"), getpid());

  ASSERT_EQ(init_return.size(), 1u);
  const engine::DecodedEvent k = init_return[0].Event();
  EXPECT_EQ(k.Int("tid"), init);
  EXPECT_EQ(k.Int("pid"), init);
  EXPECT_EQ(k.Int("ptid"), CurrentTid());
  EXPECT_EQ(k.Int("vtid"), 1);
  EXPECT_EQ(k.Int("vpid"), 1);
  // Its namespace's init is itself: started after the caller's record.
  EXPECT_GE(static_cast<uint64_t>(*k.Int("pidns_init_start_ts")), 1u);
  const int64_t tick_ns = 1'000'000'000 / sysconf(_SC_CLK_TCK);
  EXPECT_GT(*k.Int("pidns_init_start_ts") / tick_ns, InitStartTicks());

  ASSERT_EQ(middle_exit.size(), 1u);
  EXPECT_EQ(middle_exit[0].Event().Int("ret"), 7);
  EXPECT_EQ(middle_exit[0].Event().Int("reaper_tid"), init);
  EXPECT_EQ(middle_exit[0].Event().Int("group_dead"), 1);
}

}  // namespace
}  // namespace kestrel::testing
