// Falco's fields on real events: the probe records real commands (a child
// opening a file by a relative path, a loopback connection, an exec of
// /bin/true from a known parent), a ThreadTable seeded from /proc applies
// the records, and the fields of the events are checked against what the
// test knows to be true. The fields are read when their record is applied,
// as a live engine does.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "applied_events.h"
#include "engine/decode/record_view.h"
#include "engine/fields/event_context.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/filter/filter_program.h"
#include "engine/filter/parser.h"
#include "engine/state/container_id.h"
#include "engine/state/state_syscalls.h"
#include "engine/state/thread_table.h"
#include "engine/state/user_directory.h"
#include "host_files.h"
#include "probe_session.h"
#include "temp_dir.h"

namespace kestrel::testing {
namespace {

using engine::fields::FieldExtractor;
using engine::fields::FieldRegistry;

uint64_t Nanos(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Forks a child running `body`; its return value is the exit status.
pid_t Fork(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  return pid;
}

int Reap(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

class EngineFieldsTest : public ::testing::Test {
 protected:
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }

  // Starts a probe recording every process's state syscalls and `extra`,
  // and seeds the table once the probe is attached.
  void Start(std::vector<uint32_t> extra) {
    std::vector<uint32_t> syscalls = engine::StateSyscalls();
    syscalls.insert(syscalls.end(), extra.begin(), extra.end());
    session_ = ProbeSession::Start({.buffer_bytes = 16 << 20,
                                    .syscalls = std::move(syscalls),
                                    .trace_only_this_process = false});
    ASSERT_NE(session_, nullptr);
    threads_.SeedFromProc();
  }

  // Applies every record now in the rings; for the first record of thread
  // `tid` of type `type`, reads `fields` (as text, "<none>" without a
  // value) and evaluates `conditions` ("true" / "false") right after
  // applying it, and returns them by their text.
  std::map<std::string, std::string> FieldsAt(uint32_t tid, uint16_t type,
                                              const std::vector<std::string>& fields,
                                              const std::vector<std::string>& conditions = {}) {
    engine::filter::FilterProgram program;
    std::vector<engine::filter::FilterProgram::ConditionId> ids;
    for (const std::string& c : conditions) {
      absl::StatusOr<engine::filter::ExprPtr> e = engine::filter::ParseCondition(c);
      EXPECT_TRUE(e.ok()) << e.status();
      if (!e.ok()) return {};
      absl::StatusOr<engine::filter::FilterProgram::ConditionId> id = program.Add(**e, registry_);
      EXPECT_TRUE(id.ok()) << c << ": " << id.status();
      if (!id.ok()) return {};
      ids.push_back(*id);
    }
    const std::vector<engine::filter::FieldSpec> specs = testing::ResolveFields(registry_, fields);
    std::map<std::string, std::string> got;
    testing::ForEachAppliedEvent(
        session_->DrainRaw(), threads_,
        [&](const kestrel_record_header& h) {
          return got.empty() && h.tid == tid && h.type == type;
        },
        [&](const engine::DecodedEvent& event, uint64_t num, std::vector<uint8_t>&) {
          extractor_.SetEvent(
              engine::fields::MakeEventContext(event, threads_, num, boot_time_ns_));
          for (size_t i = 0; i < fields.size(); ++i) {
            std::string text;
            got[fields[i]] = extractor_.ReadText(specs[i], text) ? text : "<none>";
          }
          program.BeginEvent(extractor_);
          for (size_t i = 0; i < conditions.size(); ++i) {
            got[conditions[i]] = program.Matches(ids[i]) ? "true" : "false";
          }
        });
    EXPECT_FALSE(got.empty()) << "no record of type " << type << " from thread " << tid;
    return got;
  }

  const uint64_t boot_time_ns_ = Nanos(CLOCK_REALTIME) - Nanos(CLOCK_BOOTTIME);
  std::unique_ptr<ProbeSession> session_;
  engine::ThreadTable threads_;
  engine::state::UserDirectory users_;
  FieldRegistry registry_;
  FieldExtractor extractor_{registry_, &users_};
  TempDir dir_;
};

// The test process (seeded from /proc, started before the probe) forks a
// parent that names itself, which forks a child that execs /bin/true.
TEST_F(EngineFieldsTest, ExecFromAKnownParent) {
  const std::string self_comm = [] {
    std::string c = ReadFile("/proc/self/comm");
    return c.substr(0, c.find('\n'));
  }();
  const std::string cgroup =
      std::string(engine::state::ContainerCgroupPathFromProcFile(ReadFile("/proc/self/cgroup")));
  const std::string container = engine::state::ContainerIdFromCgroupPath(cgroup).id;
  ASSERT_NO_FATAL_FAILURE(Start({}));

  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t parent = Fork([&] {
    prctl(PR_SET_NAME, "kfparent");
    const pid_t child = Fork([] {
      char* const argv[] = {const_cast<char*>("true"), const_cast<char*>("alpha"),
                            const_cast<char*>("beta"), nullptr};
      char* const envp[] = {const_cast<char*>("KF_MARK=1"), nullptr};
      execve("/bin/true", argv, envp);
      return 101;
    });
    const pid_t c = child;
    if (write(pipe_fds[1], &c, sizeof c) != sizeof c) return 102;
    return Reap(child);
  });
  close(pipe_fds[1]);
  pid_t child = -1;
  ASSERT_EQ(read(pipe_fds[0], &child, sizeof child), static_cast<ssize_t>(sizeof child));
  close(pipe_fds[0]);
  ASSERT_EQ(Reap(parent), 0);

  const std::map<std::string, std::string> f = FieldsAt(
      child, KESTREL_EVT_EXECVE,
      {"evt.type",   "evt.res",       "proc.name",     "proc.pid",     "proc.ppid",
       "proc.pname", "proc.aname[1]", "proc.aname[2]", "proc.apid[2]", "proc.cmdline",
       "proc.args",  "proc.exepath",  "proc.pcmdline", "user.name",    "user.uid",
       "group.name", "container.id",  "evt.category",  "proc.aname",   "proc.apid"},
      {"proc.aname = kfparent", "proc.aname in (kfparent, sshd)", "proc.aname = true",
       "proc.apid = " + std::to_string(getpid()), "proc.aexepath = " + RealPath("/bin/true"),
       "proc.aname startswith kfpar and proc.aname[1] = kfparent"});
  EXPECT_EQ(f.at("evt.type"), "execve");
  // Any ancestor: the parent first, then the test process, then its own.
  EXPECT_TRUE(f.at("proc.aname").starts_with("kfparent " + self_comm)) << f.at("proc.aname");
  EXPECT_TRUE(
      f.at("proc.apid").starts_with(std::to_string(parent) + " " + std::to_string(getpid())))
      << f.at("proc.apid");
  EXPECT_EQ(f.at("proc.aname = kfparent"), "true");
  EXPECT_EQ(f.at("proc.aname in (kfparent, sshd)"), "true");
  EXPECT_EQ(f.at("proc.aname = true"), "false") << "the process is not its own ancestor";
  EXPECT_EQ(f.at("proc.apid = " + std::to_string(getpid())), "true");
  EXPECT_EQ(f.at("proc.aexepath = " + RealPath("/bin/true")), "false");
  EXPECT_EQ(f.at("proc.aname startswith kfpar and proc.aname[1] = kfparent"), "true");
  EXPECT_EQ(f.at("evt.res"), "SUCCESS");
  EXPECT_EQ(f.at("evt.category"), "process");
  EXPECT_EQ(f.at("proc.name"), "true");
  EXPECT_EQ(f.at("proc.pid"), std::to_string(child));
  EXPECT_EQ(f.at("proc.ppid"), std::to_string(parent));
  EXPECT_EQ(f.at("proc.pname"), "kfparent");
  EXPECT_EQ(f.at("proc.aname[1]"), "kfparent");
  EXPECT_EQ(f.at("proc.aname[2]"), self_comm);
  EXPECT_EQ(f.at("proc.apid[2]"), std::to_string(getpid()));
  EXPECT_EQ(f.at("proc.cmdline"), "true alpha beta");
  EXPECT_EQ(f.at("proc.args"), "alpha beta");
  EXPECT_EQ(f.at("proc.exepath"), RealPath("/bin/true"));
  EXPECT_EQ(f.at("user.name"), "root");
  EXPECT_EQ(f.at("user.uid"), "0");
  EXPECT_EQ(f.at("group.name"), "root");
  EXPECT_EQ(f.at("container.id"), container);
}

// A child opens a file by a relative path: fd.name is absolute, fd.nameraw
// what the child passed. (Needs the fd state: open records fill the fd
// table.)
TEST_F(EngineFieldsTest, OpenByRelativePath) {
  const std::string dir = RealPath(dir_.path());
  std::ofstream(dir + "/known.txt") << "x";
  char old_cwd[PATH_MAX];
  ASSERT_NE(getcwd(old_cwd, sizeof old_cwd), nullptr);
  // The seed reads the test's working directory; the child inherits it.
  ASSERT_EQ(chdir(dir.c_str()), 0);
  Start({SYS_openat});
  const pid_t child = Fork([] {
    // The descriptor number is the exit status: whatever the test process
    // holds open decides it.
    const int fd = openat(AT_FDCWD, "known.txt", O_RDONLY | O_CLOEXEC);
    return fd >= 0 && fd < 255 ? fd : 255;
  });
  const int status = Reap(child);
  ASSERT_EQ(chdir(old_cwd), 0);
  ASSERT_NE(session_, nullptr);
  ASSERT_NE(status, 255);

  const std::map<std::string, std::string> f = FieldsAt(
      child, KESTREL_EVT_OPENAT,
      {"evt.type", "fd.num", "fd.name", "fd.nameraw", "fd.directory", "fd.filename", "fd.typechar",
       "evt.is_open_read", "evt.is_open_write", "evt.arg.flags", "proc.cwd", "fs.path.nameraw"});
  EXPECT_EQ(f.at("evt.type"), "openat");
  EXPECT_EQ(f.at("evt.is_open_read"), "true");
  EXPECT_EQ(f.at("evt.is_open_write"), "false");
  EXPECT_EQ(f.at("evt.arg.flags"), "O_RDONLY|O_CLOEXEC");
  EXPECT_EQ(f.at("proc.cwd"), dir + "/");
  EXPECT_EQ(f.at("fd.num"), std::to_string(status));
  EXPECT_EQ(f.at("fd.name"), dir + "/known.txt");
  EXPECT_EQ(f.at("fd.nameraw"), "known.txt");
  EXPECT_EQ(f.at("fd.directory"), dir);
  EXPECT_EQ(f.at("fd.filename"), "known.txt");
  EXPECT_EQ(f.at("fd.typechar"), "f");
  EXPECT_EQ(f.at("fs.path.nameraw"), "known.txt");
}

// The test connects to its own loopback listener. (Needs the fd state:
// socket and connect records fill the fd table.)
TEST_F(EngineFieldsTest, ConnectToALoopbackListener) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const uint16_t server_port = ntohs(addr.sin_port);

  ASSERT_NO_FATAL_FAILURE(Start({SYS_socket, SYS_connect}));
  const int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(client, 0);
  ASSERT_EQ(connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  sockaddr_in local{};
  len = sizeof local;
  ASSERT_EQ(getsockname(client, reinterpret_cast<sockaddr*>(&local), &len), 0);
  const uint16_t client_port = ntohs(local.sin_port);

  const std::map<std::string, std::string> f = FieldsAt(
      CurrentTid(), KESTREL_EVT_CONNECT,
      {"evt.type", "fd.num", "fd.type", "fd.name", "fd.sip", "fd.sport", "fd.cip", "fd.cport",
       "fd.l4proto", "fd.sockfamily", "fd.is_server", "fd.connected", "evt.category", "fd.port"},
      {"fd.sip = 127.0.0.1 and fd.cip = \"127.0.0.1\"", "fd.ip = 127.0.0.1", "fd.ip != 127.0.0.1",
       "fd.net = 127.0.0.0/8 and fd.snet in (10.0.0.0/8, 127.0.0.0/8)", "fd.cnet = 10.0.0.0/8",
       "fd.port = " + std::to_string(server_port), "fd.port = " + std::to_string(client_port),
       "fd.port != " + std::to_string(server_port), "fd.sip = ::1"});
  close(client);
  close(listener);
  EXPECT_EQ(f.at("fd.port"), std::to_string(client_port) + " " + std::to_string(server_port));
  EXPECT_EQ(f.at("fd.sip = 127.0.0.1 and fd.cip = \"127.0.0.1\""), "true");
  EXPECT_EQ(f.at("fd.ip = 127.0.0.1"), "true");
  EXPECT_EQ(f.at("fd.ip != 127.0.0.1"), "false");
  EXPECT_EQ(f.at("fd.net = 127.0.0.0/8 and fd.snet in (10.0.0.0/8, 127.0.0.0/8)"), "true");
  EXPECT_EQ(f.at("fd.cnet = 10.0.0.0/8"), "false");
  EXPECT_EQ(f.at("fd.port = " + std::to_string(server_port)), "true");
  EXPECT_EQ(f.at("fd.port = " + std::to_string(client_port)), "true");
  EXPECT_EQ(f.at("fd.port != " + std::to_string(server_port)), "false");
  EXPECT_EQ(f.at("fd.sip = ::1"), "false");
  EXPECT_EQ(f.at("evt.type"), "connect");
  EXPECT_EQ(f.at("evt.category"), "net");
  EXPECT_EQ(f.at("fd.num"), std::to_string(client));
  EXPECT_EQ(f.at("fd.type"), "ipv4");
  EXPECT_EQ(f.at("fd.sip"), "127.0.0.1");
  EXPECT_EQ(f.at("fd.sport"), std::to_string(server_port));
  EXPECT_EQ(f.at("fd.cip"), "127.0.0.1");
  EXPECT_EQ(f.at("fd.cport"), std::to_string(client_port));
  EXPECT_EQ(f.at("fd.name"), "127.0.0.1:" + std::to_string(client_port) +
                                 "->127.0.0.1:" + std::to_string(server_port));
  EXPECT_EQ(f.at("fd.l4proto"), "tcp");
  EXPECT_EQ(f.at("fd.sockfamily"), "ip");
  EXPECT_EQ(f.at("fd.is_server"), "false");
  EXPECT_EQ(f.at("fd.connected"), "true");
}

// The same over IPv6 loopback: addresses and networks compare as IPv6.
TEST_F(EngineFieldsTest, ConnectToAnIpv6LoopbackListener) {
  const int listener = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_addr = in6addr_loopback;
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const uint16_t server_port = ntohs(addr.sin6_port);

  ASSERT_NO_FATAL_FAILURE(Start({SYS_socket, SYS_connect}));
  const int client = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(client, 0);
  ASSERT_EQ(connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);

  const std::vector<std::string> conditions = {"fd.sip = ::1 and fd.sip = \"0:0:0:0:0:0:0:1\"",
                                               "fd.snet = ::1/128 and fd.net in (fd00::/8, ::/64)",
                                               "fd.ip = 127.0.0.1", "fd.net = 0.0.0.0/0",
                                               "fd.sport = " + std::to_string(server_port) +
                                                   " and fd.port = " + std::to_string(server_port)};
  const std::map<std::string, std::string> f =
      FieldsAt(CurrentTid(), KESTREL_EVT_CONNECT, {"fd.type", "fd.sip", "fd.ip"}, conditions);
  close(client);
  close(listener);
  EXPECT_EQ(f.at("fd.type"), "ipv6");
  EXPECT_EQ(f.at("fd.sip"), "::1");
  EXPECT_EQ(f.at("fd.ip"), "::1 ::1");
  EXPECT_EQ(f.at(conditions[0]), "true");
  EXPECT_EQ(f.at(conditions[1]), "true");
  EXPECT_EQ(f.at(conditions[2]), "false");
  EXPECT_EQ(f.at(conditions[3]), "false") << "an IPv4 network holds no IPv6 address";
  EXPECT_EQ(f.at(conditions[4]), "true");
}

}  // namespace
}  // namespace kestrel::testing
