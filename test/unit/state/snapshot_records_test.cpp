// Snapshot records: every field of a thread and of a descriptor survives
// the record, and the table seeded through them (SeedFromProc) is the one
// /proc describes.
#include "engine/state/snapshot_records.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "engine/state/proc_reader.h"
#include "engine/state/thread_table.h"
#include "same_thread.h"
#include "shared/event_types.h"

namespace kestrel::engine {
namespace {

ThreadInfo EveryFieldSet() {
  ThreadInfo t;
  t.tid = 501;
  t.tgid = 500;
  t.ppid = 400;
  t.vtid = 8;
  t.vpid = 7;
  t.sid = 440;
  t.pgid = 450;
  t.tty = 34817;
  t.comm = "worker (1)";
  t.exe = "/usr/bin/py";
  t.exepath = "/usr/bin/python3.11";
  t.args = {"-m", "", "http.server"};
  t.env = {"HOME=/root", "LANG=C"};
  t.cwd = "/srv/www";
  t.root = "/jail";
  t.uid = 1000;
  t.gid = 100;
  t.euid = 1001;
  t.egid = 101;
  t.loginuid = 1002;
  t.cap_effective = 0x400;
  t.cap_permitted = 0xa80425fb;
  t.cap_inheritable = 0x1ffffffffff;
  t.cgroup = "/system.slice/web.service";
  t.cgroups = {"cpuset=/", "cpu=/system.slice/web.service", "io=/system.slice/web.service"};
  t.start_ns = 1700000000123456789;
  t.exe_ino = 4242;
  t.exe_ctime_ns = 11;
  t.exe_mtime_ns = 12;
  t.exe_writable = true;
  t.exe_from_memfd = false;
  t.exe_upper_layer = true;
  t.exe_lower_layer = true;  // not both in life; each bit travels on its own
  t.pidns_init_start_ns = 1700000000000000042;
  return t;
}

FdInfo ServerSocket() {
  FdInfo fd;
  fd.fd = 3;
  fd.type = FdType::kIpv6Socket;
  fd.name = "::1:51000->::1:8080";
  fd.nameraw = fd.name;
  fd.open_flags = O_RDWR | O_CLOEXEC;
  fd.dev = 9;
  fd.ino = 777;
  fd.family = KESTREL_AF_INET6;
  fd.l4proto = IPPROTO_TCP;
  fd.sock_type = SOCK_STREAM;
  fd.local = {KESTREL_AF_INET6, "::1", 8080};
  fd.remote = {KESTREL_AF_INET6, "::1", 51000};
  fd.connected = true;
  fd.is_server = true;
  fd.overlay_lower = true;
  return fd;
}

std::vector<RecordView> Views(const SnapshotRecords& snapshot) {
  std::vector<RecordView> views;
  snapshot.ForEach([&](const kestrel_record_header* h) {
    absl::StatusOr<RecordView> view = RecordView::Parse(h, h->len);
    EXPECT_TRUE(view.ok()) << view.status();
    if (view.ok()) views.push_back(*view);
  });
  return views;
}

TEST(SnapshotRecordsTest, AThreadRecordKeepsEveryField) {
  SnapshotRecords snapshot;
  snapshot.AddThread(EveryFieldSet(), 123);
  ASSERT_EQ(snapshot.size(), 1u);
  const std::vector<RecordView> views = Views(snapshot);
  ASSERT_EQ(views.size(), 1u);
  const kestrel_record_header& h = views[0].header();
  EXPECT_EQ(h.type, KESTREL_EVT_SNAPSHOT_THREAD);
  EXPECT_EQ(h.tid, 501u);
  EXPECT_EQ(h.tgid, 500u);
  EXPECT_EQ(h.ts_ns, 123u);
  EXPECT_EQ(h.version, KESTREL_SCHEMA_VERSION);
  EXPECT_EQ(h.nparams, 31);
  EXPECT_EQ(h.flags, 0);
  absl::StatusOr<ThreadInfo> decoded = DecodeSnapshotThread(views[0]);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ExpectSameThread(*decoded, EveryFieldSet());
}

// A file written before the cgroups and pidns_init_start_ns parameters
// were appended has 29: its threads decode, with neither.
TEST(SnapshotRecordsTest, AThreadRecordWithoutCgroupsDecodes) {
  SnapshotRecords snapshot;
  snapshot.AddThread(EveryFieldSet(), 1);
  const std::vector<uint8_t> full(snapshot.bytes().begin(), snapshot.bytes().end());
  // The same record with its last two parameters (and their lengths) taken out.
  kestrel_record_header h;
  std::memcpy(&h, full.data(), sizeof(h));
  ASSERT_EQ(h.nparams, 31);
  uint16_t cut[2] = {0, 0};
  const size_t lengths = sizeof(h);
  std::memcpy(cut, full.data() + lengths + 29 * sizeof(uint16_t), sizeof(cut));
  std::vector<uint8_t> bytes(full.begin(), full.begin() + lengths + 29 * sizeof(uint16_t));
  bytes.insert(bytes.end(), full.begin() + lengths + 31 * sizeof(uint16_t),
               full.begin() + h.len - cut[0] - cut[1]);
  h.nparams = 29;
  h.len = static_cast<uint32_t>(bytes.size());
  std::memcpy(bytes.data(), &h, sizeof(h));
  bytes.resize((bytes.size() + 7) & ~size_t{7});
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status();
  absl::StatusOr<ThreadInfo> decoded = DecodeSnapshotThread(*view);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE(decoded->cgroups.empty());
  EXPECT_EQ(decoded->pidns_init_start_ns, 0u);
  EXPECT_EQ(decoded->cgroup, "/system.slice/web.service");
}

TEST(SnapshotRecordsTest, AnFdRecordKeepsEveryField) {
  SnapshotRecords snapshot;
  snapshot.AddFd(501, 500, ServerSocket(), 123);
  const std::vector<RecordView> views = Views(snapshot);
  ASSERT_EQ(views.size(), 1u);
  EXPECT_EQ(views[0].header().type, KESTREL_EVT_SNAPSHOT_FD);
  EXPECT_EQ(views[0].header().tid, 501u);
  EXPECT_EQ(views[0].header().tgid, 500u);
  EXPECT_EQ(views[0].nparams(), 19u);
  absl::StatusOr<std::pair<uint32_t, FdInfo>> decoded = DecodeSnapshotFd(views[0]);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->first, 500u);
  ExpectSameFd(decoded->second, ServerSocket());
}

TEST(SnapshotRecordsTest, LongListsAreCutAtAnEntryAndMarkedTruncated) {
  ThreadInfo t = EveryFieldSet();
  t.env.assign(100, std::string(999, 'e'));  // 100 KB: more than a record holds
  t.exe = std::string(5000, 'x');
  SnapshotRecords snapshot;
  snapshot.AddThread(t, 1);
  const std::vector<RecordView> views = Views(snapshot);
  ASSERT_EQ(views.size(), 1u);
  EXPECT_LE(views[0].header().len, static_cast<uint32_t>(KESTREL_MAX_RECORD_BYTES));
  EXPECT_EQ(views[0].header().flags, KESTREL_RECORD_TRUNCATED);
  absl::StatusOr<ThreadInfo> decoded = DecodeSnapshotThread(views[0]);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  // 16 entries of 1000 bytes fit the 16 KiB list bound, whole.
  EXPECT_EQ(decoded->env, std::vector<std::string>(16, std::string(999, 'e')));
  EXPECT_EQ(decoded->exe, std::string(4096, 'x'));
  EXPECT_EQ(decoded->args, t.args);
}

TEST(SnapshotRecordsTest, RecordsWithTooFewParametersDoNotDecode) {
  SnapshotRecords snapshot;
  snapshot.AddThread(EveryFieldSet(), 1);
  std::vector<uint8_t> bytes(snapshot.bytes().begin(), snapshot.bytes().end());
  kestrel_record_header h;
  std::memcpy(&h, bytes.data(), sizeof(h));
  h.nparams = 28;  // the lengths then describe a shorter record
  std::memcpy(bytes.data(), &h, sizeof(h));
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_FALSE(DecodeSnapshotThread(*view).ok());
  EXPECT_FALSE(DecodeSnapshotFd(*view).ok());
  // A table ignores it.
  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable table(options);
  table.Apply(*view);
  EXPECT_EQ(table.size(), 0u);
}

TEST(SnapshotRecordsTest, TheTableTakesThreadsAndSharesOneFdTablePerProcess) {
  SnapshotRecords snapshot;
  ThreadInfo leader = EveryFieldSet();
  leader.tid = 500;
  snapshot.AddThread(leader, 1);
  snapshot.AddFd(500, 500, ServerSocket(), 1);
  snapshot.AddThread(EveryFieldSet(), 1);
  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable table(options);
  table.ApplySnapshot(snapshot);
  ASSERT_EQ(table.size(), 2u);
  const ThreadInfo* a = table.Find(500);
  const ThreadInfo* b = table.Find(501);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->fds, b->fds) << "threads of one process share one table";
  ASSERT_NE(a->fds, nullptr);
  ASSERT_EQ(a->fds->size(), 1u);
  ExpectSameFd(*a->fds->Find(3), ServerSocket());
  ThreadInfo expected = EveryFieldSet();
  expected.fds = b->fds;
  ExpectSameThread(*b, expected);
}

// The real /proc: SeedFromProc (snapshot, then apply) gives this process's
// threads exactly what reading /proc directly gives, descriptors included
// (a connected TCP pair among them).
TEST(SnapshotRecordsTest, SeedingThroughTheSnapshotEqualsReadingProc) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const int server = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
  ASSERT_GE(server, 0);

  std::map<uint32_t, ThreadInfo> direct;
  ForEachProcThread("/proc", [&](ThreadInfo t) {
    if (t.tgid == static_cast<uint32_t>(getpid())) direct.emplace(t.tid, std::move(t));
  });
  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable table(options);
  table.SeedFromProc();
  ASSERT_FALSE(direct.empty());
  for (const auto& [tid, t] : direct) {
    const ThreadInfo* seeded = table.Find(tid);
    ASSERT_NE(seeded, nullptr) << tid;
    ExpectSameThread(*seeded, t);
  }
  const ThreadInfo* self = table.Find(static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  ASSERT_NE(self->fds, nullptr);
  const FdInfo* accepted = self->fds->Find(server);
  ASSERT_NE(accepted, nullptr);
  EXPECT_EQ(accepted->type, FdType::kIpv4Socket);
  EXPECT_TRUE(accepted->is_server);
  EXPECT_EQ(accepted->local.port, ntohs(addr.sin_port));
  close(server);
  close(client);
  close(listener);
}

}  // namespace
}  // namespace kestrel::engine
