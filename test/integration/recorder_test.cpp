// The flight recorder with the real probe: it keeps the newest records after
// its writer and its loader are gone, a later process reads them back, no
// record is ever handed out torn while writers lap the reader, and stop
// leaves nothing behind.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "kestrel/common/cgroup_id.h"
#include "kestrel_cli.h"
#include "probe_session.h"
#include "recorder_fixture.h"
#include "shared/recorder_format.h"

namespace kestrel::testing {
namespace {

using Clock = std::chrono::steady_clock;

struct RecorderCloser {
  void operator()(pman_recorder* r) const { pman_recorder_close(r); }
};
using RecorderPtr = std::unique_ptr<pman_recorder, RecorderCloser>;

RecorderPtr Open(const ScopedRecorderPins& pins) {
  const pman_recorder_options o = pins.Options();
  pman_recorder* r = nullptr;
  EXPECT_EQ(pman_recorder_open(&o, &r), 0);
  return RecorderPtr(r);
}

struct Taken {
  kestrel_record_header header;
  engine::GenericSyscall call;
};

// Every record a read delivers, decoded. With `markers`, drop markers are
// counted there instead of failing the decode: a recorder under load may
// lose a record whose slot a newer lap took first, and marks the loss.
std::vector<Taken> ReadAll(pman_recorder* r, uint64_t last = 0,
                           pman_recorder_read_stats* stats = nullptr, uint64_t* markers = nullptr) {
  struct Sink {
    std::vector<Taken> out;
    uint64_t* markers;
  } sink{{}, markers};
  auto collect = [](void* ctx, const kestrel_record_header* rec) -> int {
    Sink& sink = *static_cast<Sink*>(ctx);
    if (sink.markers != nullptr && rec->type == KESTREL_EVT_DROP_MARKER) {
      ++*sink.markers;
      return 0;
    }
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(rec, rec->len);
    EXPECT_TRUE(view.ok()) << view.status();
    if (!view.ok()) return 0;
    absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
    EXPECT_TRUE(call.ok()) << call.status();
    if (call.ok()) sink.out.push_back({view->header(), *call});
    return 0;
  };
  EXPECT_EQ(pman_recorder_read(r, last, 0, collect, &sink, stats), 0);
  return std::move(sink.out);
}

// Starts a recorder of getppid only, for this process only, in-process.
void StartForThisProcess(const ScopedRecorderPins& pins, uint64_t size, bool per_cpu,
                         uint32_t syscall_id = SYS_getppid) {
  pman_recorder_options o = pins.Options();
  o.size_bytes = size;
  o.per_cpu = per_cpu;
  std::vector<uint8_t> table(pman_syscall_table_size(), 0);
  table[syscall_id] = 1;
  o.interesting = table.data();
  o.n_interesting = table.size();
  o.target_tgid = static_cast<uint32_t>(getpid());
  ASSERT_EQ(pman_recorder_start(&o), 0);
}

// A cgroup v2 directory of its own, removed when the test ends.
class ScopedCgroup {
 public:
  ScopedCgroup() : path_(cli::Cgroup2Mount() + "/kestrel-test-" + std::to_string(getpid())) {
    EXPECT_EQ(mkdir(path_.c_str(), 0755), 0) << path_;
  }
  ~ScopedCgroup() { rmdir(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `kestrel recorder start` of a 64 KiB recorder of getppid in `cgroup`.
CliResult StartGetppidRecorder(const ScopedRecorderPins& pins, const ScopedCgroup& cgroup) {
  return RunKestrel({"recorder", "start", "--name", pins.name(), "--pin-root", pins.root(),
                     "--size", "64K", "--syscalls", "getppid", "--cgroup", cgroup.path()});
}

TEST(RecorderTest, NewestRecordsOutliveWriterAndLoaderAndDumpFromANewProcess) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins pins("gen");
  ScopedCgroup cgroup;
  // 64 KiB is 512 slots; the loader is a process of its own that exits.
  const CliResult start = StartGetppidRecorder(pins, cgroup);
  ASSERT_EQ(start.exit_code, 0) << start.out;

  constexpr uint64_t kCalls = 2000;
  constexpr uint64_t kSlots = 512;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Into the recorder's cgroup: from here on only this process is recorded.
    std::ofstream(cgroup.path() + "/cgroup.procs") << 0 << std::flush;
    for (uint64_t tag = 1; tag <= kCalls; ++tag) ChecksummedGetppid(tag);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  const CliResult dump =
      RunKestrel({"dump", "--name", pins.name(), "--pin-root", pins.root(), "--json"});
  ASSERT_EQ(dump.exit_code, 0);
  const std::vector<DumpedCall> calls = ParseJsonDump(dump.out);
  ASSERT_EQ(calls.size(), kSlots);
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].pid, static_cast<uint32_t>(child));
    EXPECT_EQ(calls[i].syscall, "getppid");
    EXPECT_EQ(calls[i].args[0], kCalls - kSlots + 1 + i) << "record " << i;
    EXPECT_TRUE(ChecksumHolds(calls[i].args)) << "record " << i;
  }

  const CliResult last = RunKestrel(
      {"dump", "--name", pins.name(), "--pin-root", pins.root(), "--json", "--last", "10"});
  ASSERT_EQ(last.exit_code, 0);
  const std::vector<DumpedCall> newest = ParseJsonDump(last.out);
  ASSERT_EQ(newest.size(), 10u);
  for (size_t i = 0; i < newest.size(); ++i) EXPECT_EQ(newest[i].args[0], kCalls - 9 + i);

  // --since keeps what is younger than the duration: everything from a
  // moment ago, nothing once the writer has been gone for longer.
  const CliResult recent = RunKestrel(
      {"dump", "--name", pins.name(), "--pin-root", pins.root(), "--json", "--since", "1h"});
  EXPECT_EQ(ParseJsonDump(recent.out).size(), kSlots);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const CliResult stale = RunKestrel(
      {"dump", "--name", pins.name(), "--pin-root", pins.root(), "--json", "--since", "100ms"});
  EXPECT_EQ(stale.exit_code, 0);
  EXPECT_TRUE(ParseJsonDump(stale.out).empty()) << stale.out;

  const CliResult stop =
      RunKestrel({"recorder", "stop", "--name", pins.name(), "--pin-root", pins.root()});
  EXPECT_EQ(stop.exit_code, 0);
  struct stat st {};
  EXPECT_NE(stat(pins.dir().c_str(), &st), 0);
}

// The getppid records of `pid` in a dump (other lines, e.g. a
// settings_changed record, are not calls).
std::vector<DumpedCall> GetppidCallsOf(const std::string& dump, pid_t pid) {
  std::string calls_only;
  std::istringstream lines(dump);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"syscall\":\"getppid\"") != std::string::npos) calls_only += line + "\n";
  }
  std::vector<DumpedCall> out;
  for (const DumpedCall& c : ParseJsonDump(calls_only)) {
    if (c.pid == static_cast<uint32_t>(pid)) out.push_back(c);
  }
  return out;
}

TEST(RecorderTest, SyscallsToggleLiveFromAnotherProcess) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins pins("toggle");
  ScopedCgroup cgroup;
  const CliResult start = StartGetppidRecorder(pins, cgroup);
  ASSERT_EQ(start.exit_code, 0) << start.out;

  // The child makes ten tagged calls per phase, each when told to; between
  // phases another process (the kestrel CLI) turns getppid off, then on.
  int go[2], done[2];
  ASSERT_EQ(pipe(go), 0);
  ASSERT_EQ(pipe(done), 0);
  constexpr int kPhases = 3;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::ofstream(cgroup.path() + "/cgroup.procs") << 0 << std::flush;
    char byte = 0;
    for (int phase = 0; phase < kPhases; ++phase) {
      if (read(go[0], &byte, 1) != 1) _exit(1);
      for (uint64_t i = 1; i <= 10; ++i) ChecksummedGetppid(phase * 100 + i);
      if (write(done[1], &byte, 1) != 1) _exit(1);
    }
    _exit(0);
  }
  const auto run_phase = [&] {
    char byte = 0;
    ASSERT_EQ(write(go[1], &byte, 1), 1);
    ASSERT_EQ(read(done[0], &byte, 1), 1);
  };
  run_phase();
  const CliResult off = RunKestrel({"syscalls", "disable", "getppid", "--pin-dir", pins.dir()});
  EXPECT_EQ(off.exit_code, 0) << off.out;
  run_phase();
  const CliResult on = RunKestrel({"syscalls", "enable", "getppid", "--pin-dir", pins.dir()});
  EXPECT_EQ(on.exit_code, 0) << on.out;
  run_phase();
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (int fd : {go[0], go[1], done[0], done[1]}) close(fd);

  const CliResult dump =
      RunKestrel({"dump", "--name", pins.name(), "--pin-root", pins.root(), "--json"});
  ASSERT_EQ(dump.exit_code, 0);
  const std::vector<DumpedCall> calls = GetppidCallsOf(dump.out, child);
  std::vector<uint64_t> tags;
  for (const DumpedCall& c : calls) tags.push_back(c.args[0]);
  std::vector<uint64_t> want;
  for (uint64_t phase : {0, 2}) {
    for (uint64_t i = 1; i <= 10; ++i) want.push_back(phase * 100 + i);
  }
  EXPECT_EQ(tags, want);

  const CliResult settings = RunKestrel({"settings", "get", "--pin-dir", pins.dir()});
  EXPECT_EQ(settings.exit_code, 0) << settings.out;
  EXPECT_NE(settings.out.find("snaplen"), std::string::npos) << settings.out;
  const CliResult stop =
      RunKestrel({"recorder", "stop", "--name", pins.name(), "--pin-root", pins.root()});
  EXPECT_EQ(stop.exit_code, 0);
}

TEST(RecorderTest, OverwriteUnderLoadNeverYieldsATornRecord) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins pins("load");
  StartForThisProcess(pins, 64 * 1024, false);
  RecorderPtr reader = Open(pins);
  ASSERT_NE(reader, nullptr);

  std::atomic<bool> stop{false};
  std::atomic<uint32_t> tids[2] = {0, 0};
  std::vector<std::thread> writers;
  for (uint64_t w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      tids[w] = CurrentTid();
      for (uint64_t n = 1; !stop.load(std::memory_order_relaxed); ++n) {
        ChecksummedGetppid((w + 1) << 40 | n);
      }
    });
  }
  uint64_t reads = 0, checked = 0, bad = 0, out_of_order = 0, markers = 0;
  uint64_t miscounted_reads = 0;
  pman_recorder_read_stats total{};
  // Enough reads and records to have raced the writers many times, counted
  // rather than timed: a slow machine takes longer, not fewer. The deadline
  // only keeps a broken writer from hanging the test.
  constexpr uint64_t kReads = 20, kRecords = 100'000;
  const auto deadline = Clock::now() + std::chrono::seconds(120);
  while ((reads < kReads || checked < kRecords) && Clock::now() < deadline) {
    pman_recorder_read_stats stats{};
    std::map<uint32_t, uint64_t> last_tag;
    const uint64_t markers_before = markers;
    const std::vector<Taken> taken = ReadAll(reader.get(), 0, &stats, &markers);
    miscounted_reads += stats.records != taken.size() + (markers - markers_before);
    for (const Taken& t : taken) {
      ++checked;
      if (t.call.id != SYS_getppid || !ChecksumHolds(t.call.args)) {
        ++bad;
        continue;
      }
      uint64_t& prev = last_tag[t.header.tid];
      if (t.call.args[0] <= prev) ++out_of_order;
      prev = t.call.args[0];
    }
    total.torn += stats.torn;
    total.in_flight += stats.in_flight;
    total.lost_slots += stats.lost_slots;
    ++reads;
  }
  stop = true;
  for (std::thread& t : writers) t.join();

  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(out_of_order, 0u);
  EXPECT_GE(reads, kReads);
  EXPECT_GE(checked, kRecords);
  // Each read's own count is what it delivered: skipped slots (torn, in
  // flight, lost) are counted apart, never delivered.
  EXPECT_EQ(miscounted_reads, 0u);
  pman_recorder_status status{};
  ASSERT_EQ(pman_recorder_get_status(reader.get(), &status), 0);
  EXPECT_GT(status.counters.records_written, checked / reads);
  // Every marker in the stream stands for a loss the probe counted (none
  // seen, none required: the counter bounds what was seen).
  EXPECT_LE(markers, status.counters.drop_markers);
  std::printf(
      "%lu reads, %lu records checked, %lu drop markers; skipped %lu overwritten while "
      "read, %lu in flight, %lu lost; probe wrote %llu, dropped %llu\n",
      reads, checked, markers, total.torn, total.in_flight, total.lost_slots,
      static_cast<unsigned long long>(status.counters.records_written),
      static_cast<unsigned long long>(status.counters.drops_ring_full));
}

// A recorder of 1 MiB has 8192 slots: its shared ring is taken a batch of
// kRecorderBatchSlots at a time (recorder_writer.h). Two CPUs recording
// side by side, less than a ring in all: every record of each comes back,
// whole and in its thread's order.
TEST(RecorderTest, SharedRingTakenInBatchesKeepsEveryRecordOfTwoCpus) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  ScopedRecorderPins pins("batch");
  StartForThisProcess(pins, 1 << 20, false);
  RecorderPtr reader = Open(pins);
  ASSERT_NE(reader, nullptr);

  constexpr uint64_t kPerCpu = 3000;
  uint32_t tids[2] = {};
  std::vector<std::thread> writers;
  for (int cpu = 0; cpu < 2; ++cpu) {
    writers.emplace_back([&, cpu] {
      ScopedCpuPin pin(cpu);
      tids[cpu] = CurrentTid();
      for (uint64_t n = 1; n <= kPerCpu; ++n) ChecksummedGetppid(uint64_t(cpu + 1) << 40 | n);
    });
  }
  for (std::thread& t : writers) t.join();

  std::map<uint32_t, uint64_t> last;
  uint64_t taken = 0;
  for (const Taken& t : ReadAll(reader.get())) {
    ASSERT_EQ(t.call.id, static_cast<uint32_t>(SYS_getppid));
    ASSERT_TRUE(ChecksumHolds(t.call.args));
    const uint32_t tid = t.header.tid;
    ASSERT_TRUE(tid == tids[0] || tid == tids[1]);
    EXPECT_EQ(t.call.args[0] & ((uint64_t{1} << 40) - 1), last[tid] + 1) << "tid " << tid;
    last[tid] = t.call.args[0] & ((uint64_t{1} << 40) - 1);
    ++taken;
  }
  EXPECT_EQ(taken, 2 * kPerCpu);
  EXPECT_EQ(last[tids[0]], kPerCpu);
  EXPECT_EQ(last[tids[1]], kPerCpu);
}

// CPU 0 records three calls and goes quiet, holding the rest of its batch;
// CPU 1 then records more than a lap of the ring, over those indices. CPU
// 0's next calls must take a new batch: the old one's slots now hold newer
// records, and claiming them would lose these calls.
TEST(RecorderTest, AQuietCpuTakesANewBatchOnceTheRingLappedItsOwn) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  KESTREL_REQUIRE_TWO_CPUS();
  ScopedRecorderPins pins("lap");
  StartForThisProcess(pins, 1 << 20, false);
  RecorderPtr reader = Open(pins);
  ASSERT_NE(reader, nullptr);
  constexpr uint64_t kSlots = (1 << 20) / KESTREL_RECORDER_SLOT_BYTES;

  uint32_t quiet_tid = 0;
  auto on_cpu0 = [&](uint64_t first) {
    std::thread([&, first] {
      ScopedCpuPin pin(0);
      quiet_tid = CurrentTid();
      for (uint64_t n = first; n < first + 3; ++n) ChecksummedGetppid(uint64_t{1} << 40 | n);
    }).join();
  };
  on_cpu0(1);
  std::thread([&] {
    ScopedCpuPin pin(1);
    for (uint64_t n = 1; n <= kSlots + kSlots / 4; ++n) ChecksummedGetppid(uint64_t{2} << 40 | n);
  }).join();
  on_cpu0(4);

  std::vector<uint64_t> quiet_tags;
  for (const Taken& t : ReadAll(reader.get())) {
    if (t.header.tid == quiet_tid) quiet_tags.push_back(t.call.args[0] & 0xff);
  }
  EXPECT_EQ(quiet_tags, (std::vector<uint64_t>{4, 5, 6}));
  pman_recorder_status status{};
  ASSERT_EQ(pman_recorder_get_status(reader.get(), &status), 0);
  EXPECT_EQ(status.counters.drops_ring_full, 0u);
}

TEST(RecorderTest, StopLeavesNoPinsProgramsLinksOrMaps) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins pins("stop");
  StartForThisProcess(pins, 64 * 1024, false);

  const int link_fd = bpf_obj_get((pins.dir() + "/link").c_str());
  ASSERT_GE(link_fd, 0);
  bpf_link_info link{};
  uint32_t len = sizeof(link);
  ASSERT_EQ(bpf_obj_get_info_by_fd(link_fd, &link, &len), 0);
  close(link_fd);
  const int slots_fd = bpf_obj_get((pins.dir() + "/slots").c_str());
  ASSERT_GE(slots_fd, 0);
  bpf_map_info map{};
  len = sizeof(map);
  ASSERT_EQ(bpf_obj_get_info_by_fd(slots_fd, &map, &len), 0);
  close(slots_fd);

  const pman_recorder_options o = pins.Options();
  ASSERT_EQ(pman_recorder_stop(&o), 0);
  struct stat st {};
  EXPECT_NE(stat(pins.dir().c_str(), &st), 0);
  EXPECT_EQ(pman_recorder_stop(&o), -ENOENT);

  // The kernel frees links, programs and maps after a grace period.
  auto gone = [](int fd) {
    if (fd >= 0) close(fd);
    return fd < 0 && errno == ENOENT;
  };
  bool link_gone = false, prog_gone = false, map_gone = false;
  for (auto until = Clock::now() + std::chrono::seconds(10);
       Clock::now() < until && !(link_gone && prog_gone && map_gone);) {
    link_gone = gone(bpf_link_get_fd_by_id(link.id));
    prog_gone = gone(bpf_prog_get_fd_by_id(link.prog_id));
    map_gone = gone(bpf_map_get_fd_by_id(map.id));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(link_gone) << "link " << link.id;
  EXPECT_TRUE(prog_gone) << "program " << link.prog_id;
  EXPECT_TRUE(map_gone) << "map " << map.id;
}

TEST(RecorderTest, SeveralRecordersRunSideBySide) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins a("a");
  ScopedRecorderPins b("b");
  StartForThisProcess(a, 64 * 1024, false, SYS_getppid);
  StartForThisProcess(b, 64 * 1024, false, SYS_getpid);
  {
    pman_recorder_options again = a.Options();
    again.size_bytes = 64 * 1024;
    EXPECT_EQ(pman_recorder_start(&again), -EEXIST);
  }
  for (uint64_t tag = 1; tag <= 3; ++tag) ChecksummedGetppid(tag);
  const std::array<uint64_t, 6> g = TaggedArgs(77);
  syscall(SYS_getpid, g[0], g[1], g[2], g[3], g[4], g[5]);

  RecorderPtr ra = Open(a);
  RecorderPtr rb = Open(b);
  ASSERT_NE(ra, nullptr);
  ASSERT_NE(rb, nullptr);
  const std::vector<Taken> in_a = ReadAll(ra.get());
  const std::vector<Taken> in_b = ReadAll(rb.get());
  ASSERT_EQ(in_a.size(), 3u);
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(in_a[i].call.id, static_cast<uint32_t>(SYS_getppid));
    EXPECT_EQ(in_a[i].call.args, TaggedArgs(i + 1));
    EXPECT_EQ(in_a[i].call.ret, getppid());
  }
  ASSERT_EQ(in_b.size(), 1u);
  EXPECT_EQ(in_b[0].call.id, static_cast<uint32_t>(SYS_getpid));
  EXPECT_EQ(in_b[0].call.args, g);
  EXPECT_EQ(in_b[0].call.ret, getpid());
}

TEST(RecorderTest, ARefusedStartLeavesNothingBehind) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins pins("refused");
  pman_recorder_options o = pins.Options();
  o.size_bytes = 3 << 20;  // not a power of two
  EXPECT_EQ(pman_recorder_start(&o), -EINVAL);
  o.size_bytes = 1 << 20;
  o.name = "../escape";
  EXPECT_EQ(pman_recorder_start(&o), -EINVAL);
  struct stat st {};
  EXPECT_NE(stat(pins.root().c_str(), &st), 0) << pins.root() << " was created";
}

TEST(RecorderTest, PerCpuRingsKeepEachCpusRecordsAndMergeByTime) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  const unsigned n_cpus = std::thread::hardware_concurrency();
  ASSERT_GE(n_cpus, 1u);
  ScopedRecorderPins pins("percpu");
  StartForThisProcess(pins, 1 << 20, true);
  constexpr uint64_t kCalls = 100;
  std::vector<std::thread> threads;
  std::vector<uint32_t> tids(n_cpus);
  for (unsigned cpu = 0; cpu < n_cpus; ++cpu) {
    threads.emplace_back([&, cpu] {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
      tids[cpu] = CurrentTid();
      for (uint64_t n = 1; n <= kCalls; ++n) ChecksummedGetppid(uint64_t{cpu} << 32 | n);
    });
  }
  for (std::thread& t : threads) t.join();

  RecorderPtr reader = Open(pins);
  ASSERT_NE(reader, nullptr);
  pman_recorder_status status{};
  ASSERT_EQ(pman_recorder_get_status(reader.get(), &status), 0);
  EXPECT_GE(status.n_rings, n_cpus);
  const std::vector<Taken> all = ReadAll(reader.get());
  std::map<uint32_t, uint64_t> next;  // tid -> next expected tag number
  uint64_t prev_ts = 0;
  size_t ours = 0;
  for (const Taken& t : all) {
    EXPECT_GE(t.header.ts_ns, prev_ts);
    prev_ts = t.header.ts_ns;
    for (unsigned cpu = 0; cpu < n_cpus; ++cpu) {
      if (t.header.tid != tids[cpu]) continue;
      ++ours;
      EXPECT_EQ(t.header.cpu, cpu);
      EXPECT_EQ(t.call.args, TaggedArgs(uint64_t{cpu} << 32 | ++next[t.header.tid]));
    }
  }
  EXPECT_EQ(ours, n_cpus * kCalls);
}

}  // namespace
}  // namespace kestrel::testing
