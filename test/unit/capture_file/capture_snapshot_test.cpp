// The snapshot of the system at start round-trips through a capture file:
// made from /proc, written, read back and applied, it builds the same
// thread table as applying it live.
#include "engine/capture_file/capture_snapshot.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "capture_temp_dir.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/state/fd_table.h"
#include "engine/state/snapshot_records.h"
#include "engine/state/thread_table.h"
#include "shared/event_types.h"
#include "state/same_thread.h"

namespace kestrel::engine::capture_file {
namespace {

class CaptureSnapshotTest : public CaptureTempDirTest {
 protected:
  void SetUp() override {
    CaptureTempDirTest::SetUp();
    path_ = Path("snap.kcap");
  }

  // Writes `snapshot`, then `events` generic records.
  void Write(const SnapshotRecords& snapshot, int events, WriterOptions options = {}) {
    CaptureInfo info = CaptureInfoOfThisMachine();
    info.writer = "kestrel test";
    auto writer = CaptureWriter::Create(path_, info, options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    snapshot.ForEach(
        [&](const kestrel_record_header* h) { ASSERT_TRUE((*writer)->AppendSnapshot(h).ok()); });
    for (int i = 0; i < events; ++i) {
      kestrel_generic_record r{};
      r.hdr.ts_ns = 5000 + i;
      r.hdr.tid = r.hdr.tgid = 1;
      r.hdr.len = sizeof(r);
      r.hdr.type = KESTREL_EVT_GENERIC_SYSCALL;
      r.hdr.version = KESTREL_SCHEMA_VERSION;
      r.hdr.nparams = KESTREL_GENERIC_NPARAMS;
      for (uint16_t& l : r.param_len) l = 8;
      ASSERT_TRUE((*writer)->Append(&r.hdr).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
  }

  std::string path_;
};

TEST_F(CaptureSnapshotTest, ProcSnapshotWrittenAndReadBackSeedsTheSameTable) {
  // A descriptor of this process the snapshot must carry by name.
  const std::string file = dir_ + "/held open";
  const int fd = open(file.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  const SnapshotRecords snapshot = MakeProcSnapshot("/proc");
  close(fd);
  unlink(file.c_str());
  ASSERT_GT(snapshot.size(), 2u);
  // Small blocks: the snapshot spans many, compressed.
  Write(snapshot, 3, WriterOptions{.zstd_level = 1, .block_bytes = 16 << 10});

  SnapshotRecords read;
  absl::StatusOr<uint64_t> count = ForEachSnapshotRecord(
      path_, [&](const kestrel_record_header* h) { ASSERT_TRUE(read.AddRecord(h).ok()); });
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(*count, snapshot.size());
  ASSERT_EQ(read.bytes().size(), snapshot.bytes().size());
  EXPECT_EQ(std::memcmp(read.bytes().data(), snapshot.bytes().data(), read.bytes().size()), 0);

  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable live(options), from_file(options);
  live.ApplySnapshot(snapshot);
  from_file.ApplySnapshot(read);
  ASSERT_EQ(live.size(), from_file.size());
  size_t threads = 0;
  snapshot.ForEach([&](const kestrel_record_header* h) {
    if (h->type != KESTREL_EVT_SNAPSHOT_THREAD) return;
    ++threads;
    const ThreadInfo* a = live.Find(h->tid);
    const ThreadInfo* b = from_file.Find(h->tid);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ExpectSameThread(*a, *b);
  });
  EXPECT_EQ(threads, live.size());
  const ThreadInfo* self = from_file.Find(static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  ASSERT_NE(self->fds, nullptr);
  ASSERT_NE(self->fds->Find(fd), nullptr);
  EXPECT_EQ(self->fds->Find(fd)->name, file);
  EXPECT_EQ(self->fds->Find(fd)->type, FdType::kFile);
}

// A rotated file starts with the capture's table as it is then: written as
// snapshot records and read back, it builds the same table (threads, their
// descriptors), whatever the table learnt after its /proc seed. A thread
// that exited but is still in its grace period is in it too, as records
// still to be read may name it: its name is what they need.
TEST_F(CaptureSnapshotTest, TheTablesOwnSnapshotSeedsTheSameTable) {
  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable table(options);
  table.ApplySnapshot(MakeProcSnapshot("/proc"));
  ThreadInfo exited;
  exited.tid = exited.tgid = 4'000'000;
  exited.comm = "gone";
  exited.exited = true;
  table.Insert(exited);
  // A process the table learnt of after its seed: its descriptors, shared
  // by its threads, come after its leader, whichever thread came first.
  auto fds = std::make_shared<FdTable>();
  FdInfo log;
  log.fd = 3;
  log.type = FdType::kFile;
  log.name = "/var/log/leader.log";
  log.open_flags = O_WRONLY | O_APPEND;
  fds->Set(log);
  ThreadInfo worker;
  worker.tid = 4'000'002;
  worker.tgid = 4'000'001;
  worker.comm = "worker";
  worker.fds = fds;
  table.Insert(worker);
  ThreadInfo leader;
  leader.tid = leader.tgid = 4'000'001;
  leader.comm = "leader";
  leader.args = {"-x", "y"};
  leader.fds = fds;
  table.Insert(leader);

  const SnapshotRecords snapshot = table.Snapshot(77);
  Write(snapshot, 1);
  SnapshotRecords read;
  absl::StatusOr<uint64_t> count = ForEachSnapshotRecord(
      path_, [&](const kestrel_record_header* h) { ASSERT_TRUE(read.AddRecord(h).ok()); });
  ASSERT_TRUE(count.ok()) << count.status();
  ThreadTable from_file(options);
  from_file.ApplySnapshot(read);
  EXPECT_EQ(from_file.size(), table.size());
  ASSERT_NE(from_file.Find(exited.tid), nullptr);
  EXPECT_EQ(from_file.Find(exited.tid)->comm, "gone");
  size_t compared = 0;
  read.ForEach([&](const kestrel_record_header* h) {
    EXPECT_EQ(h->ts_ns, 77u);
    if (h->type != KESTREL_EVT_SNAPSHOT_THREAD) return;
    const ThreadInfo* a = table.Find(h->tid);
    const ThreadInfo* b = from_file.Find(h->tid);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    if (h->tid == exited.tid) return;  // seeded as a thread like any other
    ExpectSameThread(*a, *b);
    ++compared;
  });
  EXPECT_EQ(compared, from_file.size() - 1);
  ASSERT_NE(from_file.Find(worker.tid), nullptr);
  EXPECT_EQ(from_file.Find(worker.tid)->comm, "worker");
  EXPECT_EQ(from_file.Find(leader.tid)->args, leader.args);
  EXPECT_EQ(from_file.Find(worker.tid)->fds, from_file.Find(leader.tid)->fds);
  const ThreadInfo* self = from_file.Find(static_cast<uint32_t>(gettid()));
  ASSERT_NE(self, nullptr);
  ASSERT_NE(self->fds, nullptr);
  EXPECT_GT(self->fds->size(), 0u);
}

TEST_F(CaptureSnapshotTest, TheReaderTellsSnapshotRecordsFromEvents) {
  SnapshotRecords snapshot;
  ThreadInfo t;
  t.tid = t.tgid = 42;
  t.comm = "snap";
  snapshot.AddThread(t, 10);
  Write(snapshot, 2);
  auto reader = CaptureReader::Open(path_);
  ASSERT_TRUE(reader.ok()) << reader.status();
  bool is_snapshot = false;
  const kestrel_record_header* h = (*reader)->Next(&is_snapshot);
  ASSERT_NE(h, nullptr);
  EXPECT_TRUE(is_snapshot);
  EXPECT_EQ(h->type, KESTREL_EVT_SNAPSHOT_THREAD);
  for (int i = 0; i < 2; ++i) {
    h = (*reader)->Next(&is_snapshot);
    ASSERT_NE(h, nullptr);
    EXPECT_FALSE(is_snapshot);
    EXPECT_EQ(h->type, KESTREL_EVT_GENERIC_SYSCALL);
  }
  EXPECT_EQ((*reader)->Next(), nullptr);
  EXPECT_FALSE((*reader)->damage());
}

TEST_F(CaptureSnapshotTest, AFileWithoutASnapshotHasNone) {
  Write(SnapshotRecords(), 2);
  absl::StatusOr<uint64_t> count =
      ForEachSnapshotRecord(path_, [](const kestrel_record_header*) { FAIL(); });
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(*count, 0u);
}

TEST_F(CaptureSnapshotTest, ADamagedSnapshotIsReportedAfterTheRecordsBeforeIt) {
  SnapshotRecords snapshot;
  for (uint32_t i = 1; i <= 200; ++i) {
    ThreadInfo t;
    t.tid = t.tgid = i;
    t.comm = "thread " + std::to_string(i);
    snapshot.AddThread(t, 10);
  }
  // Stored blocks of about 4 KiB: cutting the file inside the last one
  // leaves the others whole.
  Write(snapshot, 0, WriterOptions{.zstd_level = 0, .block_bytes = 4 << 10});
  struct stat st {};
  ASSERT_EQ(stat(path_.c_str(), &st), 0);
  ASSERT_EQ(truncate(path_.c_str(), st.st_size - 1000), 0);
  uint64_t visited = 0;
  absl::StatusOr<uint64_t> count =
      ForEachSnapshotRecord(path_, [&](const kestrel_record_header*) { ++visited; });
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(count.status().message().find("cut short"), std::string::npos) << count.status();
  EXPECT_GT(visited, 0u);
  EXPECT_LT(visited, 200u);
}

}  // namespace
}  // namespace kestrel::engine::capture_file
