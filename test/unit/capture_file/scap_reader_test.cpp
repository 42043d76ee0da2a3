// libscap .scap files, written here byte by byte (test/support/scap_writer.h),
// read through CaptureReader: the process and fd lists become the snapshot,
// the events Kestrel knows its records with every value mapped exactly,
// the rest is counted by name; cut and damaged files are read up to the
// damage, and never read outside the file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/sched.h>
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "capture_temp_dir.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "engine/state/fd_table.h"
#include "engine/state/snapshot_records.h"
#include "engine/state/thread_table.h"
#include "scap_writer.h"
#include "shared/event_types.h"

namespace kestrel::engine::capture_file {
namespace {

using test::ScapFd;
using test::ScapInt;
using test::ScapList;
using test::ScapProcess;
using test::ScapStr;
using test::ScapWriter;

constexpr uint64_t kBoot = 1'700'000'000'000'000'000;  // boot time, ns since the epoch
constexpr uint64_t kT0 = kBoot + 5'000'000'000;        // the first event

std::string Sample() {
  ScapWriter w;
  w.SectionHeader().MachineInfo("scaphost", kBoot, 4);
  ScapProcess init{.tid = 1,
                   .pid = 1,
                   .ptid = 0,
                   .comm = "systemd",
                   .exe = "/sbin/init",
                   .exepath = "/usr/lib/systemd/systemd"};
  ScapProcess bash{.tid = 100,
                   .pid = 100,
                   .ptid = 1,
                   .sid = 100,
                   .comm = "bash",
                   .exe = "bash",
                   .exepath = "/usr/bin/bash",
                   .args = {"-l"},
                   .cwd = "/root/",
                   .uid = 1000,
                   .gid = 1001,
                   .env = {"HOME=/root", "TERM=xterm"},
                   .vtid = 100,
                   .vpid = 100,
                   .loginuid = 1000,
                   .pgid = 100};
  ScapProcess worker = bash;  // a second thread of bash, listed on its own
  worker.tid = 101;
  worker.ptid = 100;
  w.ProcessList({init, bash, worker});
  ScapFd passwd{
      .fd = 3, .ino = 11, .name = "/etc/passwd", .open_flags = test::kPpmORdonly, .dev = 0x801};
  ScapFd sock{.fd = 4,
              .ino = 12,
              .kind = test::kScapFdIpv4Sock,
              .sip = {10, 0, 0, 1},
              .dip = {93, 184, 216, 34},
              .sport = 40000,
              .dport = 443};
  w.FdList(100, {passwd, sock});

  const uint8_t local[4] = {10, 0, 0, 1}, remote[4] = {93, 184, 216, 34};
  // 1. openat, both halves (the exit carries everything).
  w.Event(test::kScapOpenatE, kT0, 100,
          {ScapInt<int64_t>(-100), ScapStr("/etc/shadow"),
           ScapInt<uint32_t>(test::kPpmORdonly | test::kPpmOCloexec), ScapInt<uint32_t>(0)});
  w.Event(test::kScapOpenatX, kT0 + 1, 100,
          {ScapInt<int64_t>(5), ScapInt<int64_t>(-100), ScapStr("/etc/shadow"),
           ScapInt<uint32_t>(test::kPpmORdonly | test::kPpmOCloexec), ScapInt<uint32_t>(0),
           ScapInt<uint32_t>(0x801), ScapInt<uint64_t>(42)});
  // 2. Unknown to Kestrel: a context switch; then a futex of the second
  // thread (enter and exit).
  w.Event(test::kScapSwitchE, kT0 + 2, 100,
          {ScapInt<int64_t>(101), ScapInt<uint64_t>(0), ScapInt<uint64_t>(0), ScapInt<uint32_t>(0),
           ScapInt<uint32_t>(0), ScapInt<uint32_t>(0)});
  w.Event(test::kScapFutexE, kT0 + 3, 101,
          {ScapInt<uint64_t>(0x1000), ScapInt<uint16_t>(0), ScapInt<uint64_t>(1)});
  w.Event(
      test::kScapFutexX, kT0 + 4, 101,
      {ScapInt<int64_t>(0), ScapInt<uint64_t>(0x1000), ScapInt<uint16_t>(0), ScapInt<uint64_t>(1)});
  // 3. An old openat: the exit has the fd only, the enter the rest.
  w.Event(test::kScapOpenatOldE, kT0 + 5, 100,
          {ScapInt<int64_t>(-100), ScapStr("tmp/out.txt"),
           ScapInt<uint32_t>(test::kPpmOWronly | test::kPpmOCreat | test::kPpmOTrunc),
           ScapInt<uint32_t>(0644)});
  w.Event(test::kScapOpenatOldX, kT0 + 6, 100, {ScapInt<int64_t>(6)});
  // 4. bash forks 200; the child's own return.
  std::vector<std::string> clone = {
      ScapInt<int64_t>(200), ScapStr("bash"),         ScapList({"-l"}),
      ScapInt<int64_t>(100), ScapInt<int64_t>(100),   ScapInt<int64_t>(1),
      ScapStr("/root"),      ScapInt<int64_t>(1024),  ScapInt<uint64_t>(0),
      ScapInt<uint64_t>(0),  ScapInt<uint32_t>(0),    ScapInt<uint32_t>(0),
      ScapInt<uint32_t>(0),  ScapStr("bash"),         ScapList({"cpu=/user.slice"}),
      ScapInt<uint32_t>(0),  ScapInt<uint32_t>(1000), ScapInt<uint32_t>(1001),
      ScapInt<int64_t>(200), ScapInt<int64_t>(200),   ScapInt<uint64_t>(0)};
  w.Event(test::kScapCloneX, kT0 + 7, 100, clone);
  clone[0] = ScapInt<int64_t>(0);
  clone[3] = ScapInt<int64_t>(200);
  clone[4] = ScapInt<int64_t>(200);
  clone[5] = ScapInt<int64_t>(100);
  w.Event(test::kScapCloneX, kT0 + 8, 200, clone);
  // 5. The child execs cat: an exit with the first 16 parameters only, the
  // file name from the enter.
  w.Event(test::kScapExecveE, kT0 + 9, 200, {ScapStr("/usr/bin/cat")});
  w.Event(test::kScapExecveX, kT0 + 10, 200,
          {ScapInt<int64_t>(0), ScapStr("cat"), ScapList({"/etc/hosts"}), ScapInt<int64_t>(200),
           ScapInt<int64_t>(200), ScapInt<int64_t>(100), ScapStr("/root"), ScapInt<uint64_t>(1024),
           ScapInt<uint64_t>(0), ScapInt<uint64_t>(0), ScapInt<uint32_t>(0), ScapInt<uint32_t>(0),
           ScapInt<uint32_t>(0), ScapStr("cat"), ScapList({"cpu=/user.slice"}),
           ScapList({"HOME=/root"})});
  // 6. connect from bash.
  w.Event(test::kScapConnectX, kT0 + 11, 100,
          {ScapInt<int64_t>(0), test::ScapTuple4(local, 40001, remote, 80), ScapInt<int64_t>(7),
           test::ScapSockaddr4(remote, 80)});
  // 7. A generic syscall (getpid, 39): the native id in the enter only.
  w.Event(test::kScapGenericE, kT0 + 12, 100, {ScapInt<uint16_t>(5), ScapInt<uint16_t>(39)});
  w.Event(test::kScapGenericX, kT0 + 13, 100, {ScapInt<uint16_t>(5)});
  // 8. close, then an old (V1) block's read, then cat exits.
  w.Event(test::kScapCloseX, kT0 + 14, 100, {ScapInt<int64_t>(0), ScapInt<int64_t>(5)});
  w.Event(test::kScapReadX, kT0 + 15, 100,
          {ScapInt<int64_t>(3), std::string("abc"), ScapInt<int64_t>(3), ScapInt<uint32_t>(3)},
          /*v2=*/false);
  w.Event(test::kScapProcexitE, kT0 + 16, 200,
          {ScapInt<int64_t>(0), ScapInt<int64_t>(0), ScapInt<uint8_t>(0), ScapInt<uint8_t>(0),
           ScapInt<int64_t>(0)});
  return w.bytes();
}

class ScapReaderTest : public CaptureTempDirTest {
 protected:
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = Path(name);
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  // Every record of the file: snapshot records applied to `threads`,
  // events decoded into `events` (a copy of each record) and applied.
  struct Read {
    std::vector<std::vector<uint64_t>> events;
    uint64_t snapshot = 0;
  };
  Read ReadAll(CaptureReader& reader, ThreadTable& threads) {
    Read out;
    bool snapshot = false;
    while (const kestrel_record_header* h = reader.Next(&snapshot)) {
      absl::StatusOr<RecordView> view = RecordView::Parse(h, h->len, reader.schema());
      EXPECT_TRUE(view.ok()) << view.status();
      if (!view.ok()) continue;
      threads.Apply(*view);
      if (snapshot) {
        ++out.snapshot;
        continue;
      }
      std::vector<uint64_t> copy((h->len + 7) / 8);
      std::memcpy(copy.data(), h, h->len);
      out.events.push_back(std::move(copy));
    }
    return out;
  }
};

ThreadTableOptions NoProc() {
  ThreadTableOptions options;
  options.proc_fallback = false;
  return options;
}

const kestrel_record_header& Header(const std::vector<uint64_t>& r) {
  return *reinterpret_cast<const kestrel_record_header*>(r.data());
}

DecodedEvent Decode(const std::vector<uint64_t>& r) {
  absl::StatusOr<RecordView> view = RecordView::Parse(r.data(), Header(r).len);
  EXPECT_TRUE(view.ok()) << view.status();
  absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(*view);
  EXPECT_TRUE(event.ok()) << event.status();
  return *std::move(event);
}

TEST_F(ScapReaderTest, MapsTheSnapshotAndTheEventsKestrelKnows) {
  auto reader = CaptureReader::Open(Write("sample.scap", Sample()));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_TRUE((*reader)->is_scap());
  EXPECT_EQ((*reader)->info().hostname, "scaphost");
  EXPECT_EQ((*reader)->info().cpu_count, 4u);
  EXPECT_EQ((*reader)->info().boot_time_ns, kBoot);

  ThreadTable threads(NoProc());
  // The snapshot alone first: the table as the capture started.
  bool snapshot = false;
  std::vector<std::vector<uint64_t>> snapshot_records;
  auto again = CaptureReader::Open(Write("again.scap", Sample()));
  ASSERT_TRUE(again.ok());
  while (const kestrel_record_header* h = (*again)->Next(&snapshot)) {
    if (!snapshot) break;
    absl::StatusOr<RecordView> view = RecordView::Parse(h, h->len);
    ASSERT_TRUE(view.ok()) << view.status();
    if (h->type == KESTREL_EVT_SNAPSHOT_THREAD) {
      absl::StatusOr<ThreadInfo> t = DecodeSnapshotThread(*view);
      ASSERT_TRUE(t.ok()) << t.status();
      if (t->tid == 100) {
        EXPECT_EQ(t->tgid, 100u);
        EXPECT_EQ(t->ppid, 1u);
        EXPECT_EQ(t->sid, 100u);
        EXPECT_EQ(t->pgid, 100u);
        EXPECT_EQ(t->vtid, 100u);
        EXPECT_EQ(t->comm, "bash");
        EXPECT_EQ(t->exe, "bash");
        EXPECT_EQ(t->exepath, "/usr/bin/bash");
        EXPECT_EQ(t->args, std::vector<std::string>{"-l"});
        EXPECT_EQ(t->env, (std::vector<std::string>{"HOME=/root", "TERM=xterm"}));
        EXPECT_EQ(t->cwd, "/root");
        EXPECT_EQ(t->uid, 1000u);
        EXPECT_EQ(t->euid, 1000u);
        EXPECT_EQ(t->gid, 1001u);
        EXPECT_EQ(t->loginuid, 1000u);
        EXPECT_EQ(t->exe_ino, 77u);
      }
      if (t->tid == 101) {
        EXPECT_EQ(t->tgid, 100u);
        EXPECT_EQ(t->ppid, 100u);  // libscap's ptid 100 is a thread of process 100
      }
    } else {
      ASSERT_EQ(h->type, KESTREL_EVT_SNAPSHOT_FD);
      absl::StatusOr<std::pair<uint32_t, FdInfo>> fd = DecodeSnapshotFd(*view);
      ASSERT_TRUE(fd.ok()) << fd.status();
      EXPECT_EQ(fd->first, 100u);
      if (fd->second.fd == 3) {
        EXPECT_EQ(fd->second.type, FdType::kFile);
        EXPECT_EQ(fd->second.name, "/etc/passwd");
        EXPECT_EQ(fd->second.open_flags, static_cast<uint32_t>(O_RDONLY));
        EXPECT_EQ(fd->second.dev, 0x801u);
        EXPECT_EQ(fd->second.ino, 11u);
      } else {
        EXPECT_EQ(fd->second.fd, 4);
        EXPECT_EQ(fd->second.type, FdType::kIpv4Socket);
        EXPECT_EQ(fd->second.name, "10.0.0.1:40000->93.184.216.34:443");
        EXPECT_EQ(fd->second.local.port, 40000);
        EXPECT_EQ(fd->second.remote.address, "93.184.216.34");
        EXPECT_EQ(fd->second.l4proto, 6);
      }
    }
    snapshot_records.emplace_back();
  }
  EXPECT_EQ(snapshot_records.size(), 5u);  // 3 threads, 2 descriptors

  const Read read = ReadAll(**reader, threads);
  EXPECT_EQ(read.snapshot, 5u);
  EXPECT_FALSE((*reader)->damage().has_value()) << (*reader)->damage()->what;
  std::string types;
  for (const auto& r : read.events) types += std::to_string(Header(r).type) + " ";
  ASSERT_EQ(read.events.size(), 11u) << types;
  EXPECT_EQ((*reader)->scap_known_events(), 11u);
  EXPECT_EQ((*reader)->scap_unknown_events(), (std::map<std::string, uint64_t>{{"switch", 1}}));
  EXPECT_EQ((*reader)->ScapSummary(), "1 event of 1 type not known to Kestrel: switch 1");

  // 1. openat.
  {
    const kestrel_record_header& h = Header(read.events[0]);
    EXPECT_EQ(h.type, KESTREL_EVT_OPENAT);
    EXPECT_EQ(h.ts_ns, kT0 + 1 - kBoot);
    EXPECT_EQ(h.tid, 100u);
    EXPECT_EQ(h.tgid, 100u);
    DecodedEvent e = Decode(read.events[0]);
    EXPECT_EQ(e.Int("fd"), 5);
    EXPECT_EQ(e.Int("dirfd"), -100);
    EXPECT_EQ(e.String("name"), "/etc/shadow");
    EXPECT_EQ(e.Int("flags"), O_RDONLY | O_CLOEXEC);
    EXPECT_EQ(e.Int("mode"), 0);
    EXPECT_EQ(e.Int("dev"), 0x801);
    EXPECT_EQ(e.Int("ino"), 42);
    EXPECT_EQ(e.String("path"), "");  // Kestrel's own: not in the file
  }
  // 2. futex (Kestrel has it too).
  EXPECT_EQ(Header(read.events[1]).type, KESTREL_EVT_FUTEX);
  EXPECT_EQ(Decode(read.events[1]).Int("addr"), 0x1000);
  EXPECT_EQ(Header(read.events[1]).tgid, 100u);  // thread 101 of process 100
  // 3. The old openat, completed from its enter.
  {
    DecodedEvent e = Decode(read.events[2]);
    EXPECT_EQ(Header(read.events[2]).type, KESTREL_EVT_OPENAT);
    EXPECT_EQ(e.Int("fd"), 6);
    EXPECT_EQ(e.Int("dirfd"), -100);
    EXPECT_EQ(e.String("name"), "tmp/out.txt");
    EXPECT_EQ(e.Int("flags"), O_WRONLY | O_CREAT | O_TRUNC);
    EXPECT_EQ(e.Int("mode"), 0644);
    EXPECT_EQ(e.Int("dev"), std::nullopt);
  }
  // 3. The caller's clone names the child; the child's own return.
  {
    EXPECT_EQ(Header(read.events[3]).type, KESTREL_EVT_CLONE);
    DecodedEvent e = Decode(read.events[3]);
    EXPECT_EQ(e.Int("res"), 200);
    EXPECT_EQ(e.Int("child_tid"), 200);
    EXPECT_EQ(e.Int("child_pid"), 200);
    EXPECT_EQ(e.Int("flags"), 0);
    EXPECT_EQ(e.String("comm"), "bash");
    EXPECT_EQ(e.Int("uid"), 1000);
    EXPECT_EQ(Header(read.events[4]).tid, 200u);
    EXPECT_EQ(Header(read.events[4]).tgid, 200u);
    EXPECT_EQ(Decode(read.events[4]).Int("res"), 0);
  }
  // 4. execve.
  {
    EXPECT_EQ(Header(read.events[5]).type, KESTREL_EVT_EXECVE);
    EXPECT_EQ(Header(read.events[5]).tgid, 200u);
    DecodedEvent e = Decode(read.events[5]);
    EXPECT_EQ(e.Int("res"), 0);
    EXPECT_EQ(e.String("exe"), "cat");
    EXPECT_EQ(e.StringList("args"), std::vector<std::string>{"/etc/hosts"});
    EXPECT_EQ(e.StringList("env"), std::vector<std::string>{"HOME=/root"});
    EXPECT_EQ(e.String("comm"), "cat");
    EXPECT_EQ(e.Int("ptid"), 100);
    EXPECT_EQ(e.String("filename"), "/usr/bin/cat");  // from the enter
    EXPECT_EQ(e.Int("loginuid"), std::nullopt);       // past the parameters the file has
  }
  // 5. connect.
  {
    EXPECT_EQ(Header(read.events[6]).type, KESTREL_EVT_CONNECT);
    DecodedEvent e = Decode(read.events[6]);
    EXPECT_EQ(e.Int("res"), 0);
    EXPECT_EQ(e.Int("fd"), 7);
    auto tuple = e.Tuple("tuple");
    ASSERT_TRUE(tuple.has_value());
    EXPECT_EQ(tuple->first.ToString(), "10.0.0.1:40001");
    EXPECT_EQ(tuple->second.ToString(), "93.184.216.34:80");
    auto addr = e.Address("addr");
    ASSERT_TRUE(addr.has_value());
    EXPECT_EQ(addr->ToString(), "93.184.216.34:80");
  }
  // 6. The generic syscall.
  {
    const kestrel_record_header& h = Header(read.events[7]);
    EXPECT_EQ(h.type, KESTREL_EVT_GENERIC_SYSCALL);
    absl::StatusOr<RecordView> view = RecordView::Parse(&h, h.len);
    ASSERT_TRUE(view.ok()) << view.status();
    absl::StatusOr<GenericSyscall> g = DecodeGenericSyscall(*view);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(g->id, 39u);
  }
  // 7. close, the V1 read, procexit.
  {
    EXPECT_EQ(Header(read.events[8]).type, KESTREL_EVT_CLOSE);
    EXPECT_EQ(Decode(read.events[8]).Int("fd"), 5);
    EXPECT_EQ(Header(read.events[9]).type, KESTREL_EVT_READ);
    DecodedEvent r = Decode(read.events[9]);
    EXPECT_EQ(r.Int("res"), 3);
    EXPECT_EQ(r.Int("fd"), 3);
    EXPECT_EQ(r.StringView("data"), "abc");
    EXPECT_EQ(Header(read.events[10]).type, KESTREL_EVT_PROCESS_EXIT);
    EXPECT_EQ(Header(read.events[10]).tid, 200u);
  }

  // The state the records built: names of processes and descriptors that
  // started before the capture, the fork and exec.
  const ThreadInfo* bash = threads.Find(100);
  ASSERT_NE(bash, nullptr);
  EXPECT_EQ(bash->comm, "bash");
  ASSERT_NE(bash->fds, nullptr);
  ASSERT_NE(bash->fds->Find(3), nullptr);
  EXPECT_EQ(bash->fds->Find(3)->name, "/etc/passwd");
  ASSERT_NE(bash->fds->Find(6), nullptr);
  EXPECT_EQ(bash->fds->Find(6)->name, "/root/tmp/out.txt");  // against the cwd
  EXPECT_EQ(bash->fds->Find(5), nullptr);                    // closed
  const ThreadInfo* cat = threads.Find(200);
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->comm, "cat");
  EXPECT_EQ(cat->ppid, 100u);
  EXPECT_EQ(cat->args, std::vector<std::string>{"/etc/hosts"});
}

TEST_F(ScapReaderTest, ReadsAGzippedFile) {
  const std::string raw = Sample();
  uLongf size = compressBound(raw.size()) + 64;
  std::string gz(size, '\0');
  z_stream z{};
  ASSERT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(gz.data());
  z.avail_out = static_cast<uInt>(gz.size());
  ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  gz.resize(z.total_out);
  deflateEnd(&z);
  auto reader = CaptureReader::Open(Write("sample.scap.gz", gz));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ThreadTable threads(NoProc());
  EXPECT_EQ(ReadAll(**reader, threads).events.size(), 11u);
  EXPECT_FALSE((*reader)->damage().has_value());

  // Cut in the middle: the events before, and damage.
  auto cut = CaptureReader::Open(Write("cut.scap.gz", gz.substr(0, gz.size() * 3 / 4)));
  ASSERT_TRUE(cut.ok()) << cut.status();
  ThreadTable more(NoProc());
  ReadAll(**cut, more);
  ASSERT_TRUE((*cut)->damage().has_value());
  EXPECT_NE((*cut)->damage()->what.find("inflated"), std::string::npos) << (*cut)->damage()->what;
}

TEST_F(ScapReaderTest, ACutFileIsReadUpToTheCut) {
  ScapWriter w;
  w.SectionHeader();
  w.Event(test::kScapCloseX, kT0, 100, {ScapInt<int64_t>(0), ScapInt<int64_t>(5)});
  const size_t second = w.size();
  w.Event(test::kScapCloseX, kT0 + 1, 100, {ScapInt<int64_t>(0), ScapInt<int64_t>(6)});
  const std::string bytes = w.bytes();
  auto reader = CaptureReader::Open(Write("cut.scap", bytes.substr(0, bytes.size() - 5)));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ThreadTable threads(NoProc());
  EXPECT_EQ(ReadAll(**reader, threads).events.size(), 1u);
  ASSERT_TRUE((*reader)->damage().has_value());
  EXPECT_EQ((*reader)->damage()->offset, second);
  EXPECT_EQ((*reader)->damage()->what,
            absl::StrFormat("the block at byte %u is cut short (%u of %u bytes)", second,
                            bytes.size() - 5 - second, bytes.size() - second));
}

TEST_F(ScapReaderTest, AnEventLyingAboutItsLengthIsDamage) {
  ScapWriter w;
  w.SectionHeader();
  w.Event(test::kScapCloseX, kT0, 100, {ScapInt<int64_t>(0), ScapInt<int64_t>(5)});
  const size_t second = w.size();
  w.Event(test::kScapCloseX, kT0 + 1, 100, {ScapInt<int64_t>(0), ScapInt<int64_t>(6)});
  std::string bytes = w.bytes();
  // The second event's first parameter length: 8 -> 0x7fff.
  const size_t len_at = second + 8 + 2 + 26;
  bytes[len_at] = '\xff';
  bytes[len_at + 1] = '\x7f';
  auto reader = CaptureReader::Open(Write("lying.scap", bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ThreadTable threads(NoProc());
  EXPECT_EQ(ReadAll(**reader, threads).events.size(), 1u);
  ASSERT_TRUE((*reader)->damage().has_value());
  EXPECT_EQ((*reader)->damage()->offset, second);
}

TEST_F(ScapReaderTest, NotScapOrNewerIsRefused) {
  EXPECT_FALSE(CaptureReader::Open(Write("short.scap", std::string("\x0a\x0d\x0d\x0a", 4))).ok());
  ScapWriter newer;
  newer.SectionHeader(2, 0);
  auto refused = CaptureReader::Open(Write("newer.scap", newer.bytes()));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("newer"), std::string::npos);
}

TEST_F(ScapReaderTest, EveryCutAndRandomDamageStopsCleanly) {
  const std::string bytes = Sample();
  std::set<size_t> boundaries;  // a cut there leaves a whole, shorter file
  for (size_t at = 0; at + 8 <= bytes.size();) {
    boundaries.insert(at);
    uint32_t length = 0;
    std::memcpy(&length, bytes.data() + at + 4, 4);
    at += length;
  }
  for (size_t n = 0; n < bytes.size(); n += 3) {
    auto reader = CaptureReader::Open(Write("cut.scap", bytes.substr(0, n)));
    if (!reader.ok()) continue;
    ThreadTable threads(NoProc());
    ReadAll(**reader, threads);
    if (!boundaries.contains(n)) {
      EXPECT_TRUE((*reader)->damage().has_value()) << n;
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::string damaged = bytes;
    for (int k = 0; k < 4; ++k) damaged[rng() % damaged.size()] = static_cast<char>(rng());
    auto reader = CaptureReader::Open(Write("rnd.scap", damaged));
    if (!reader.ok()) continue;
    bool snapshot = false;
    while (const kestrel_record_header* h = (*reader)->Next(&snapshot)) {
      ASSERT_GE(h->len, sizeof(kestrel_record_header));
      ASSERT_LE(h->len, static_cast<uint32_t>(KESTREL_MAX_RECORD_BYTES));
      (void)RecordView::Parse(h, h->len);
    }
  }
}

}  // namespace
}  // namespace kestrel::engine::capture_file
