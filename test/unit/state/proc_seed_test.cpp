// The seed from /proc: a fixture tree with every file the reader looks at,
// and the real /proc for this test process's own facts and descriptors.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "engine/state/fd_table.h"
#include "engine/state/proc_fds.h"
#include "engine/state/proc_reader.h"
#include "engine/state/thread_table.h"

namespace kestrel::engine {
namespace {

namespace fs = std::filesystem;

class ProcFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kestrel-proc-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    Write("stat", "cpu  1 2 3\nbtime 1700000000\nprocesses 5\n");
    Write(
        "net/tcp",
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
        "timeout inode\n"
        "   0: 0100007F:1F90 0100007F:C738 01 00000000:00000000 00:00000000 00000000 0 0 777 1\n");
    Write("net/unix", "Num RefCount Protocol Flags Type St Inode Path\n");
    // Process 500 (threads 500 and 501), started from a shell.
    const std::string p = "500/";
    Write(p + "cmdline", std::string("/usr/bin/py\0-m\0http.server\0", 27));
    Write(p + "environ", std::string("HOME=/root\0LANG=C\0", 18));
    Write(p + "loginuid", "1000");
    Write(p + "cgroup", "0::/system.slice/web.service\n");
    Link(p + "exe", "/usr/bin/python3.11");
    Link(p + "cwd", "/srv/www");
    Link(p + "root", "/");
    Link(p + "fd/0", "/dev/null");
    Link(p + "fd/3", "socket:[777]");
    Link(p + "fd/4", "pipe:[888]");
    Link(p + "fd/5", "anon_inode:[eventfd]");
    Link(p + "fd/6", "/memfd:blob (deleted)");
    Link(p + "fd/7", "anon_inode:inotify");
    Write(p + "fdinfo/5", "pos:\t0\nflags:\t02000002\nmnt_id:\t15\n");
    for (const char* tid : {"500", "501"}) {
      const std::string t = p + "task/" + tid + "/";
      Write(t + "comm", std::string(tid) == "500" ? "python3\n" : "worker (1)\n");
      Write(t + "stat", std::string(tid) +
                            " (py) thr) S 400 450 440 34817 450 4194560 0 0 0 0 0 0 0 "
                            "0 20 0 2 0 12345 0 0\n");
      Write(t + "status",
            "Name:\tpython3\nPPid:\t400\nUid:\t1000\t1001\t1000\t1000\nGid:\t100\t101\t100\t100\n"
            "NStgid:\t500\t7\nNSpid:\t" +
                std::string(tid) + "\t" + (std::string(tid) == "500" ? "7" : "8") +
                "\nCapInh:\t0000000000000000\nCapPrm:\t00000000a80425fb\nCapEff:"
                "\t0000000000000400\n");
    }
  }
  void TearDown() override { fs::remove_all(root_); }

  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel, std::ios::binary) << text;
  }
  void Link(const std::string& rel, const std::string& target) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    fs::create_symlink(target, root_ + "/" + rel);
  }

  std::map<uint32_t, ThreadInfo> Seed() {
    std::map<uint32_t, ThreadInfo> out;
    ForEachProcThread(root_, [&](ThreadInfo t) { out.emplace(t.tid, std::move(t)); });
    return out;
  }

  std::string root_;
};

// A process's pid namespace's init is found in the same scan: the process
// whose innermost pid is 1 under the same ns/pid link. The host's namespace
// starts at boot.
TEST_F(ProcFixture, PidNamespaceInitStartFromTheScan) {
  Link("500/ns/pid", "pid:[4026532001]");
  for (const char* pid : {"600", "700"}) {
    const std::string p = std::string(pid) + "/";
    const bool init = std::string(pid) == "600";
    Link(p + "ns/pid", init ? "pid:[4026532001]" : "pid:[4026531836]");
    const std::string t = p + "task/" + pid + "/";
    Write(t + "comm", "x\n");
    Write(t + "stat", std::string(pid) + " (x) S 1 1 1 0 1 0 0 0 0 0 0 0 0 0 20 0 1 0 " +
                          (init ? "100" : "50") + " 0 0\n");
    Write(t + "status", "Name:\tx\nNStgid:\t" + std::string(pid) + (init ? "\t1" : "") +
                            "\nNSpid:\t" + pid + (init ? "\t1" : "") + "\n");
  }
  std::map<uint32_t, ThreadInfo> threads = Seed();
  ASSERT_EQ(threads.size(), 4u);
  const uint64_t tick_ns = 1000000000 / sysconf(_SC_CLK_TCK);
  const uint64_t init_start = 1700000000ull * 1000000000 + 100 * tick_ns;
  EXPECT_EQ(threads.at(600).start_ns, init_start);
  EXPECT_EQ(threads.at(600).pidns_init_start_ns, init_start);
  EXPECT_EQ(threads.at(500).pidns_init_start_ns, init_start);
  EXPECT_EQ(threads.at(501).pidns_init_start_ns, init_start);
  EXPECT_EQ(threads.at(700).pidns_init_start_ns, 1700000000ull * 1000000000);
}

TEST_F(ProcFixture, EveryFieldProcGives) {
  std::map<uint32_t, ThreadInfo> threads = Seed();
  ASSERT_EQ(threads.size(), 2u);
  const ThreadInfo& t = threads.at(500);
  EXPECT_EQ(t.tgid, 500u);
  EXPECT_EQ(t.comm, "python3");
  EXPECT_EQ(t.ppid, 400u);
  EXPECT_EQ(t.pgid, 450u);
  EXPECT_EQ(t.sid, 440u);
  EXPECT_EQ(t.tty, 34817u);
  EXPECT_EQ(t.vpid, 7u);
  EXPECT_EQ(t.vtid, 7u);
  EXPECT_EQ(t.exe, "/usr/bin/py");
  EXPECT_EQ(t.exepath, "/usr/bin/python3.11");
  EXPECT_EQ(t.args, (std::vector<std::string>{"-m", "http.server"}));
  EXPECT_EQ(t.env, (std::vector<std::string>{"HOME=/root", "LANG=C"}));
  EXPECT_EQ(t.cwd, "/srv/www");
  EXPECT_EQ(t.root, "/");
  EXPECT_EQ(t.uid, 1000u);
  EXPECT_EQ(t.euid, 1001u);
  EXPECT_EQ(t.gid, 100u);
  EXPECT_EQ(t.egid, 101u);
  EXPECT_EQ(t.loginuid, 1000u);
  EXPECT_EQ(t.cap_inheritable, 0u);
  EXPECT_EQ(t.cap_permitted, 0xa80425fbu);
  EXPECT_EQ(t.cap_effective, 0x400u);
  EXPECT_EQ(t.cgroup, "/system.slice/web.service");
  // No /proc/cgroups in the fixture: all five controllers, on the unified
  // hierarchy.
  EXPECT_EQ(t.cgroups, (std::vector<std::string>{
                           "cpuset=/system.slice/web.service", "cpu=/system.slice/web.service",
                           "cpuacct=/system.slice/web.service", "io=/system.slice/web.service",
                           "memory=/system.slice/web.service"}));
  EXPECT_EQ(t.start_ns,
            1700000000ull * 1000000000 + 12345ull * (1000000000 / sysconf(_SC_CLK_TCK)));
  const ThreadInfo& worker = threads.at(501);
  EXPECT_EQ(worker.comm, "worker (1)");
  EXPECT_EQ(worker.tgid, 500u);
  EXPECT_EQ(worker.vtid, 8u);
  EXPECT_EQ(worker.vpid, 7u);
}

TEST_F(ProcFixture, DescriptorsAreReadOncePerProcessAndShared) {
  std::map<uint32_t, ThreadInfo> threads = Seed();
  const std::shared_ptr<FdTable>& fds = threads.at(500).fds;
  ASSERT_NE(fds, nullptr);
  EXPECT_EQ(fds, threads.at(501).fds) << "threads share one table";
  EXPECT_EQ(fds->size(), 6u);
  ASSERT_NE(fds->Find(0), nullptr);
  EXPECT_EQ(fds->Find(0)->name, "/dev/null");
  ASSERT_NE(fds->Find(3), nullptr);
  EXPECT_EQ(fds->Find(3)->type, FdType::kIpv4Socket);
  EXPECT_EQ(fds->Find(3)->name, "127.0.0.1:8080->127.0.0.1:51000");
  EXPECT_EQ(fds->Find(3)->fd, 3);
  EXPECT_EQ(fds->Find(4)->type, FdType::kPipe);
  EXPECT_EQ(fds->Find(4)->name, "pipe:[888]");
  EXPECT_EQ(fds->Find(4)->ino, 888u);
  EXPECT_EQ(fds->Find(5)->type, FdType::kEvent);
  EXPECT_EQ(fds->Find(5)->open_flags, static_cast<uint32_t>(O_CLOEXEC | O_RDWR));
  EXPECT_EQ(fds->Find(6)->type, FdType::kMemfd);
  EXPECT_EQ(fds->Find(6)->name, "memfd:blob");
  EXPECT_EQ(fds->Find(7)->type, FdType::kInotify);
}

TEST(ProcFdLinkTest, KindsFromTheLinkText) {
  EXPECT_EQ(FdFromProcLink(1, "anon_inode:[signalfd]", nullptr).type, FdType::kSignalfd);
  EXPECT_EQ(FdFromProcLink(1, "anon_inode:[eventpoll]", nullptr).type, FdType::kEventpoll);
  EXPECT_EQ(FdFromProcLink(1, "anon_inode:[timerfd]", nullptr).type, FdType::kTimerfd);
  EXPECT_EQ(FdFromProcLink(1, "anon_inode:[pidfd]", nullptr).type, FdType::kPidfd);
  EXPECT_EQ(FdFromProcLink(1, "anon_inode:bpf-map", nullptr).type, FdType::kBpf);
  EXPECT_EQ(FdFromProcLink(1, "anon_inode:[io_uring]", nullptr).type, FdType::kIoUring);
  const FdInfo unknown_socket = FdFromProcLink(9, "socket:[12]", nullptr);
  EXPECT_EQ(unknown_socket.type, FdType::kUnknown);
  EXPECT_EQ(unknown_socket.name, "socket:[12]");
  EXPECT_EQ(unknown_socket.ino, 12u);
  EXPECT_EQ(unknown_socket.fd, 9);
}

// The real /proc: this process's cwd, ids and the descriptors it opens.
TEST(ProcSeedTest, ThisProcessExactly) {
  char dir_template[] = "/tmp/kestrel-seed-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string file = dir + "/seeded file";
  const int file_fd = open(file.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  ASSERT_GE(file_fd, 0);
  const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(dir_fd, 0);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  struct stat pipe_st {};
  ASSERT_EQ(fstat(pipe_fds[0], &pipe_st), 0);
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const uint16_t port = ntohs(addr.sin_port);
  const std::filesystem::path old_cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);

  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable table(options);
  table.SeedFromProc();
  std::filesystem::current_path(old_cwd);

  const ThreadInfo* self = table.Find(static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->cwd, dir);
  EXPECT_EQ(self->root, "/");
  EXPECT_EQ(self->uid, getuid());
  EXPECT_EQ(self->euid, geteuid());
  EXPECT_EQ(self->gid, getgid());
  EXPECT_EQ(self->sid, static_cast<uint32_t>(getsid(0)));
  EXPECT_EQ(self->pgid, static_cast<uint32_t>(getpgrp()));
  EXPECT_EQ(self->vpid, static_cast<uint32_t>(getpid()));
  EXPECT_GT(self->start_ns, 0u);
  std::ifstream cmdline_file("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> argv;
  for (std::string arg; std::getline(cmdline_file, arg, '\0');) argv.push_back(arg);
  ASSERT_FALSE(argv.empty());
  EXPECT_EQ(self->exe, argv[0]);
  EXPECT_EQ(self->args, std::vector<std::string>(argv.begin() + 1, argv.end()));
  char exe[4096] = {};
  ASSERT_GT(readlink("/proc/self/exe", exe, sizeof(exe) - 1), 0);
  EXPECT_EQ(self->exepath, exe);
  ASSERT_NE(self->fds, nullptr);
  const FdTable& fds = *self->fds;
  ASSERT_NE(fds.Find(file_fd), nullptr);
  EXPECT_EQ(fds.Find(file_fd)->type, FdType::kFile);
  EXPECT_EQ(fds.Find(file_fd)->name, file);
  EXPECT_EQ(fds.Find(file_fd)->open_flags & (O_CLOEXEC | O_ACCMODE),
            static_cast<uint32_t>(O_CLOEXEC | O_RDWR));
  ASSERT_NE(fds.Find(dir_fd), nullptr);
  EXPECT_EQ(fds.Find(dir_fd)->type, FdType::kDirectory);
  EXPECT_EQ(fds.Find(dir_fd)->name, dir);
  ASSERT_NE(fds.Find(pipe_fds[1]), nullptr);
  EXPECT_EQ(fds.Find(pipe_fds[1])->type, FdType::kPipe);
  EXPECT_EQ(fds.Find(pipe_fds[1])->ino, pipe_st.st_ino);
  ASSERT_NE(fds.Find(listener), nullptr);
  EXPECT_EQ(fds.Find(listener)->type, FdType::kIpv4Socket);
  EXPECT_EQ(fds.Find(listener)->name, "127.0.0.1:" + std::to_string(port));
  EXPECT_TRUE(fds.Find(listener)->is_server);

  close(listener);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  close(dir_fd);
  close(file_fd);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kestrel::engine
