// The syscall-source fields of issue 38 read from synthetic threads,
// descriptors, records and a fake /proc: each value checked exactly, and
// each field absent where it has nothing to say.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "record_test_builder.h"
#include "synthetic_system.h"

namespace kestrel::engine::fields {
namespace {

using testing::CatRecord;
using testing::ParamBytes;
using testing::ReturnName;
using testing::Str;

// poll's pollfds as the probe writes them: a u16 count, (s64 fd, s16 events).
ParamBytes PollFds(const std::vector<int64_t>& fds) {
  const auto count = static_cast<uint16_t>(fds.size());
  ParamBytes b(sizeof(count));
  std::memcpy(b.data(), &count, sizeof(count));
  for (const int64_t fd : fds) {
    const size_t at = b.size();
    b.resize(at + 10);
    std::memcpy(b.data() + at, &fd, 8);
  }
  return b;
}

class SyscallSourceFieldsTest : public ::testing::Test {
 protected:
  filter::FieldSpec Spec(std::string_view text) {
    filter::FieldRef ref;
    const size_t bracket = text.find('[');
    ref.name = std::string(text.substr(0, bracket));
    if (bracket != std::string_view::npos) {
      ref.index = std::string(text.substr(bracket + 1, text.size() - bracket - 2));
    }
    absl::StatusOr<filter::FieldSpec> spec = sys_.registry().Resolve(ref);
    EXPECT_TRUE(spec.ok()) << text << ": " << spec.status();
    return spec.ok() ? *spec : filter::FieldSpec{};
  }

  std::string Text(std::string_view field) {
    std::string out;
    return sys_.extractor().ReadText(Spec(field), out) ? out : "<none>";
  }

  // cat's thread, to change before the next event.
  ThreadInfo Cat() { return *sys_.threads().Find(testing::kCatPid); }
  FdTable& CatFds() { return *sys_.threads().Find(testing::kCatPid)->fds; }

  void ReadFd(int64_t fd, int64_t ret, uint16_t cpu = 0) {
    sys_.SetEvent(testing::EventRecord(
        KESTREL_EVT_READ, {.tid = testing::kCatPid, .tgid = testing::kCatPid, .cpu = cpu},
        {{ReturnName(KESTREL_EVT_READ), ret}, {"fd", fd}}));
  }

  testing::SyntheticSystem sys_;
};

TEST_F(SyscallSourceFieldsTest, EventFieldsOfARead) {
  ReadFd(4, 5, 1);
  EXPECT_EQ(Text("evt.source"), "syscall");
  EXPECT_EQ(Text("evt.hostname"), "<none>") << "no host name given";
  sys_.extractor().SetHostname("node-7");
  EXPECT_EQ(Text("evt.hostname"), "node-7");
  EXPECT_EQ(Text("evt.cpu"), "1");
  EXPECT_EQ(Text("syscall.type"), "read");
  EXPECT_EQ(Text("evt.is_io"), "true");
  EXPECT_EQ(Text("evt.is_io_read"), "true");
  EXPECT_EQ(Text("evt.is_io_write"), "false");
  EXPECT_EQ(Text("evt.io_dir"), "read");
  EXPECT_EQ(Text("evt.is_syslog"), "false");
  EXPECT_EQ(Text("evt.buflen"), "5");
  EXPECT_EQ(Text("evt.buflen.in"), "5");
  EXPECT_EQ(Text("evt.buflen.out"), "<none>");
  EXPECT_EQ(Text("evt.info"), Text("evt.args"));
  EXPECT_EQ(Text("evt.count.error"), "0");
  EXPECT_EQ(Text("evt.count.error.net"), "0");
  EXPECT_EQ(Text("evt.count.error.file"), "<none>");
  EXPECT_EQ(Text("evt.count.error.memory"), "<none>");
  EXPECT_EQ(Text("evt.count.error.other"), "<none>");
  EXPECT_EQ(Text("evt.count.exit"), "1");
  EXPECT_EQ(Text("evt.rawtime.s"), "1700000001");
  EXPECT_EQ(Text("evt.rawtime.ns"), "0");
  EXPECT_EQ(Text("evt.datetime.s").size(), 19u);
  EXPECT_EQ(Text("evt.datetime.s"), Text("evt.datetime").substr(0, 19));
  EXPECT_EQ(Text("evt.abspath"), "<none>");
}

TEST_F(SyscallSourceFieldsTest, FailedReadHasNoBufferLengthAndCountsAnError) {
  ReadFd(3, -9);
  EXPECT_EQ(Text("evt.buflen"), "<none>");
  EXPECT_EQ(Text("evt.count.error"), "1");
  EXPECT_EQ(Text("evt.count.error.file"), "1");
  EXPECT_EQ(Text("evt.count.error.net"), "<none>");
  // A read of a descriptor Kestrel does not know has no length either.
  ReadFd(42, 10);
  EXPECT_EQ(Text("evt.buflen"), "<none>");
  EXPECT_EQ(Text("evt.is_io_read"), "true");
  EXPECT_EQ(Text("evt.count.error.other"), "0");
}

TEST_F(SyscallSourceFieldsTest, WriteToDevLogIsSyslog) {
  FdInfo log;
  log.fd = 9;
  log.type = FdType::kUnixSocket;
  log.family = KESTREL_AF_UNIX;
  log.name = "/dev/log";
  CatFds().Set(log);
  sys_.SetEvent(CatRecord(KESTREL_EVT_WRITE, {{ReturnName(KESTREL_EVT_WRITE), 3}, {"fd", 9}},
                          {{"data", ParamBytes{'a', 'b', 'c'}}}));
  EXPECT_EQ(Text("evt.is_syslog"), "true");
  EXPECT_EQ(Text("evt.io_dir"), "write");
  EXPECT_EQ(Text("evt.buflen.out"), "3");
  EXPECT_EQ(Text("evt.buflen.in"), "<none>");
  EXPECT_EQ(Text("evt.is_io_read"), "false");
}

TEST_F(SyscallSourceFieldsTest, OtherSyscallsAreNoIo) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_MMAP, {{ReturnName(KESTREL_EVT_MMAP), -12}}));
  EXPECT_EQ(Text("evt.is_io"), "false");
  EXPECT_EQ(Text("evt.io_dir"), "<none>");
  EXPECT_EQ(Text("evt.count.error.memory"), "1");
  EXPECT_EQ(Text("evt.count.error.other"), "<none>");
}

TEST_F(SyscallSourceFieldsTest, AbsolutePathsOfAtSyscalls) {
  FdInfo dir;
  dir.fd = 8;
  dir.type = FdType::kDirectory;
  dir.name = "/var/tmp";
  CatFds().Set(dir);
  sys_.SetEvent(
      CatRecord(KESTREL_EVT_RENAMEAT,
                {{ReturnName(KESTREL_EVT_RENAMEAT), 0}, {"olddirfd", AT_FDCWD}, {"newdirfd", 8}},
                {{"oldpath", Str("a.txt")}, {"newpath", Str("../b.txt")}}));
  EXPECT_EQ(Text("evt.abspath"), "/etc/a.txt");
  EXPECT_EQ(Text("evt.abspath.src"), "/etc/a.txt");
  EXPECT_EQ(Text("evt.abspath.dst"), "/var/b.txt");
  EXPECT_EQ(Text("fs.path.sourceraw"), "a.txt");
  EXPECT_EQ(Text("fs.path.targetraw"), "../b.txt");
  EXPECT_EQ(Text("evt.is_io"), "false");
  // A directory fd Kestrel does not know: no absolute path to give.
  sys_.SetEvent(CatRecord(KESTREL_EVT_MKDIRAT,
                          {{ReturnName(KESTREL_EVT_MKDIRAT), 0}, {"dirfd", 99}, {"mode", 0755}},
                          {{"path", Str("new")}}));
  EXPECT_EQ(Text("evt.abspath"), "<none>");
  sys_.SetEvent(CatRecord(KESTREL_EVT_MKDIRAT,
                          {{ReturnName(KESTREL_EVT_MKDIRAT), 0}, {"dirfd", 99}, {"mode", 0755}},
                          {{"path", Str("/srv/./new")}}));
  EXPECT_EQ(Text("evt.abspath"), "/srv/new");
  EXPECT_EQ(Text("fs.path.sourceraw"), "<none>");
}

TEST_F(SyscallSourceFieldsTest, ProcessAndThreadFields) {
  ThreadInfo bash = *sys_.threads().Find(200);
  bash.start_ns = testing::kBootTimeNs + 100'000'000;
  bash.vpid = 200;
  bash.pgid = 200;
  sys_.threads().Insert(bash);
  ThreadInfo cat = Cat();
  cat.pgid = 200;
  cat.cap_inheritable = 1ULL << 5;  // CAP_KILL
  sys_.threads().Insert(cat);
  FdInfo out;
  out.fd = 1;
  out.type = FdType::kPipe;
  out.name = "pipe:[77]";
  CatFds().Set(out);
  ReadFd(3, 0);
  EXPECT_EQ(Text("proc.pid.ts"), "1700000000500000000");
  EXPECT_EQ(Text("proc.ppid.ts"), "1700000000100000000");
  EXPECT_EQ(Text("proc.ppid.duration"), "900000000");
  EXPECT_EQ(Text("proc.pvpid"), "200");
  EXPECT_EQ(Text("proc.pgid"), "200");
  EXPECT_EQ(Text("proc.vpgid"), "200");
  EXPECT_EQ(Text("proc.is_pgid_leader"), "false");
  EXPECT_EQ(Text("proc.pgid.name"), "bash");
  EXPECT_EQ(Text("proc.pgid.exe"), "-bash");
  EXPECT_EQ(Text("proc.pgid.exepath"), "/usr/bin/bash");
  EXPECT_EQ(Text("proc.vpgid.name"), "bash");
  EXPECT_EQ(Text("proc.vpgid.exe"), "-bash");
  EXPECT_EQ(Text("proc.vpgid.exepath"), "/usr/bin/bash");
  EXPECT_EQ(Text("proc.sid.exe"), "-bash");
  EXPECT_EQ(Text("proc.sid.exepath"), "/usr/bin/bash");
  EXPECT_EQ(Text("proc.is_sid_leader"), "false");
  EXPECT_EQ(Text("proc.cmdnargs"), "2");
  EXPECT_EQ(Text("proc.cmdlenargs"), "8");
  EXPECT_EQ(Text("proc.aargs[0]"), "passwd -n");
  EXPECT_EQ(Text("proc.aargs[2]"), "-D");
  EXPECT_EQ(Text("proc.acmdline[2]"), "sshd -D");
  EXPECT_EQ(Text("proc.acmdline[4]"), "<none>");
  EXPECT_EQ(Text("proc.acmdline"), "bash sshd -D systemd");
  EXPECT_EQ(Text("proc.stdin.type"), "<none>");
  EXPECT_EQ(Text("proc.stdin.name"), "<none>");
  EXPECT_EQ(Text("proc.stdout.type"), "pipe");
  EXPECT_EQ(Text("proc.stdout.name"), "pipe:[77]");
  EXPECT_EQ(Text("proc.stderr.type"), "<none>");
  EXPECT_EQ(Text("proc.fdopencount"), "6");
  EXPECT_EQ(Text("thread.ismain"), "true");
  EXPECT_EQ(Text("thread.cap_inheritable"), "CAP_KILL");
  EXPECT_EQ(Text("thread.nametid"), "cat300");
  EXPECT_EQ(Text("user.homedir"), "/home/alice");
  EXPECT_EQ(Text("user.shell"), "/bin/bash");

  // In a pid namespace of its own the group id's numbering is not known.
  cat.vpid = 5;
  sys_.threads().Insert(cat);
  ReadFd(3, 0);
  EXPECT_EQ(Text("proc.pgid"), "<none>");
  EXPECT_EQ(Text("proc.vpgid"), "<none>");
  EXPECT_EQ(Text("proc.pgid.name"), "<none>");
  EXPECT_EQ(Text("proc.is_pgid_leader"), "<none>");

  // A session whose leader is gone: its eldest member in the lineage.
  cat.vpid = cat.tgid;
  cat.sid = 150;
  sys_.threads().Insert(cat);
  ThreadInfo bash2 = bash;
  bash2.sid = 150;
  sys_.threads().Insert(bash2);
  ReadFd(3, 0);
  EXPECT_EQ(Text("proc.sid.exe"), "-bash");
  // A thread that is not its process's main one.
  ThreadInfo worker = Cat();
  worker.tid = 301;
  sys_.threads().Insert(worker);
  sys_.SetEvent(testing::EventRecord(KESTREL_EVT_READ, {.tid = 301, .tgid = testing::kCatPid},
                                     {{ReturnName(KESTREL_EVT_READ), 0}, {"fd", 3}}));
  EXPECT_EQ(Text("thread.ismain"), "false");
  EXPECT_EQ(Text("thread.nametid"), "cat301");
}

TEST_F(SyscallSourceFieldsTest, ProcFieldsComeFromProcWhenARuleReadsThem) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kestrel-proc-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "300" / "task" / "300");
  std::ofstream(dir / "300" / "status") << "Name:\tcat\nVmPeak:\t 2000 kB\nVmSize:\t    1000 kB\n"
                                           "VmRSS:\t     200 kB\nVmSwap:\t       3 kB\n"
                                           "Threads:\t4\n";
  std::ofstream(dir / "300" / "limits")
      << "Limit                     Soft Limit           Hard Limit           Units     \n"
         "Max cpu time              unlimited            unlimited            seconds   \n"
         "Max open files            1024                 524288               files     \n";
  std::ofstream(dir / "300" / "task" / "300" / "stat")
      << "300 (c a) t) S 200 300 200 34816 300 4194304 11 0 22 0 5 6\n";

  ReadFd(3, 0);
  // No /proc given (a capture file): absent.
  for (const char* f :
       {"proc.vmsize", "proc.vmrss", "proc.vmswap", "proc.nthreads", "proc.nchilds", "proc.fdlimit",
        "proc.fdusage", "thread.vmsize", "thread.vmrss", "thread.pfmajor", "thread.pfminor"}) {
    EXPECT_EQ(Text(f), "<none>") << f;
  }
  sys_.extractor().SetProcDir(dir.string());
  ReadFd(3, 0);
  EXPECT_EQ(Text("proc.vmsize"), "1000");
  EXPECT_EQ(Text("proc.vmrss"), "200");
  EXPECT_EQ(Text("proc.vmswap"), "3");
  EXPECT_EQ(Text("proc.nthreads"), "4");
  EXPECT_EQ(Text("proc.nchilds"), "3");
  EXPECT_EQ(Text("proc.fdlimit"), "1024");
  // Open descriptors over the limit, in percent, with Falco's one decimal.
  const double open = static_cast<double>(CatFds().size());
  ASSERT_GT(open, 0);
  char percent[32];
  std::snprintf(percent, sizeof(percent), "%.1f", open * 100 / 1024);
  EXPECT_EQ(Text("proc.fdusage"), percent);
  EXPECT_EQ(Text("thread.vmsize"), "1000");
  EXPECT_EQ(Text("thread.vmrss"), "200");
  EXPECT_EQ(Text("thread.pfminor"), "11");
  EXPECT_EQ(Text("thread.pfmajor"), "22");
  // A process /proc no longer has: absent, never 0.
  sys_.SetEvent(testing::EventRecord(KESTREL_EVT_READ, {.tid = 200, .tgid = 200},
                                     {{ReturnName(KESTREL_EVT_READ), 0}, {"fd", 3}}));
  EXPECT_EQ(Text("proc.vmsize"), "<none>");
  EXPECT_EQ(Text("proc.nthreads"), "<none>");
  EXPECT_EQ(Text("proc.fdlimit"), "<none>");
  std::filesystem::remove_all(dir);
}

TEST_F(SyscallSourceFieldsTest, DescriptorFields) {
  FdInfo file = *CatFds().Find(3);
  file.dev = makedev(8, 1);
  file.ino = 42;
  CatFds().Set(file);
  ReadFd(3, 0);
  EXPECT_EQ(Text("fd.ino"), "42");
  EXPECT_EQ(Text("fd.dev"), std::to_string(makedev(8, 1)));
  EXPECT_EQ(Text("fd.dev.major"), "8");
  EXPECT_EQ(Text("fd.dev.minor"), "1");
  EXPECT_EQ(Text("fd.uid"), "3003");
  EXPECT_EQ(Text("fd.types"), "file ipv4 ipv6 unix");
  EXPECT_EQ(Text("fd.types[4]"), "ipv4");
  EXPECT_EQ(Text("fd.types[99]"), "<none>");
  EXPECT_EQ(Text("fd.containername"), "host:/etc/passwd");
  EXPECT_EQ(Text("fd.containerdirectory"), "host:/etc");
  EXPECT_EQ(Text("fd.cproto"), "<none>") << "not a socket";
  ReadFd(5, 0);  // the server's end: client 192.168.1.9:51000, local :22
  EXPECT_EQ(Text("fd.cproto"), "51000");
  EXPECT_EQ(Text("fd.sproto"), "22");
  EXPECT_EQ(Text("fd.lproto"), "22");
  EXPECT_EQ(Text("fd.rproto"), "51000");
  EXPECT_EQ(Text("fd.uid"), "3005");
  EXPECT_EQ(Text("fd.containerdirectory"), "<none>");
}

// The table keeps a descriptor's device as stat(2) numbers it, whatever
// the probe's record carries (the kernel's major << 20 | minor).
TEST_F(SyscallSourceFieldsTest, OpenRecordsDeviceInStatEncoding) {
  const std::vector<uint8_t> record =
      CatRecord(KESTREL_EVT_OPENAT,
                {{ReturnName(KESTREL_EVT_OPENAT), 10},
                 {"dirfd", AT_FDCWD},
                 {"flags", O_RDONLY},
                 {"dev", (8 << 20) | 3},
                 {"ino", 77}},
                {{"name", Str("/etc/hosts")}, {"path", Str("/etc/hosts")}});
  auto view = RecordView::Parse(record.data(), record.size());
  ASSERT_TRUE(view.ok());
  auto event = DecodedEvent::Decode(*view);
  ASSERT_TRUE(event.ok());
  sys_.threads().ApplyEvent(*event);
  sys_.SetEvent(record);
  EXPECT_EQ(Text("fd.num"), "10");
  EXPECT_EQ(Text("fd.dev"), std::to_string(makedev(8, 3)));
  EXPECT_EQ(Text("fd.dev.major"), "8");
  EXPECT_EQ(Text("fd.dev.minor"), "3");
  EXPECT_EQ(Text("fd.ino"), "77");
}

TEST_F(SyscallSourceFieldsTest, FdlistFieldsOfPoll) {
  sys_.SetEvent(CatRecord(KESTREL_EVT_POLL, {{ReturnName(KESTREL_EVT_POLL), 1}, {"timeout", -1}},
                          {{"fds", PollFds({4, 6, 99, 5})}}));
  EXPECT_EQ(Text("fdlist.nums"), "4,6,99,5");
  EXPECT_EQ(Text("fdlist.names"),
            "10.0.0.5:40000->127.0.0.1:8080,/run/x.sock,<NA>,10.0.0.5:40000->127.0.0.1:8080");
  EXPECT_EQ(Text("fdlist.cips"), "10.0.0.5,192.168.1.9");
  EXPECT_EQ(Text("fdlist.sips"), "127.0.0.1,192.168.1.2");
  EXPECT_EQ(Text("fdlist.cports"), "40000,51000");
  EXPECT_EQ(Text("fdlist.sports"), "8080,22");
  sys_.SetEvent(CatRecord(KESTREL_EVT_POLL, {{ReturnName(KESTREL_EVT_POLL), 1}, {"timeout", -1}},
                          {{"fds", PollFds({6})}}));
  EXPECT_EQ(Text("fdlist.cips"), "<none>") << "no IP socket polled";
  ReadFd(3, 0);
  EXPECT_EQ(Text("fdlist.nums"), "<none>") << "not a poll";
}

TEST_F(SyscallSourceFieldsTest, FdTypesIsAListForConditions) {
  const filter::FieldSpec spec = Spec("fd.types");
  EXPECT_EQ(spec.type, filter::ValueType::kStringList);
  EXPECT_EQ(spec.multiplicity, filter::Multiplicity::kOne);
  filter::FieldRef bad;
  bad.name = "fd.types";
  bad.index = "x";
  EXPECT_FALSE(sys_.registry().Resolve(bad).ok());
}

}  // namespace
}  // namespace kestrel::engine::fields
