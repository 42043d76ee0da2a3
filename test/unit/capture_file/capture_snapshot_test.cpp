// The snapshot of the system at start round-trips through a capture file:
// made from /proc, written, read back and applied, it builds the same
// thread table as applying it live.
#include "engine/capture_file/capture_snapshot.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/capture_file/capture_reader.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/state/snapshot_records.h"
#include "engine/state/thread_table.h"
#include "shared/event_types.h"
#include "state/same_thread.h"

namespace kestrel::engine::capture_file {
namespace {

class CaptureSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kestrel-capture-snapshot-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/snap.kcap";
  }
  void TearDown() override {
    unlink(path_.c_str());
    rmdir(dir_.c_str());
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

  std::string dir_, path_;
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
