// Live settings on the real probe: every change is reported as a
// settings_changed record, the target set and dropping mode act on the next
// syscall, and toggles under load take effect within one syscall.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "probe_session.h"
#include "shared/event_types.h"
#include "storage_modes.h"
#include "temp_dir.h"

namespace kestrel::testing {
namespace {

// The cgroup v2 id of this process: the inode of its cgroup directory.
uint64_t OwnCgroupId() {
  std::ifstream in("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(in, line)) {
    if (line.starts_with("0::")) path = line.substr(3);
  }
  for (const char* root : {"/sys/fs/cgroup/unified", "/sys/fs/cgroup"}) {
    struct statfs fs {};
    struct stat st {};
    if (statfs(root, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC &&
        stat((std::string(root) + path).c_str(), &st) == 0) {
      return st.st_ino;
    }
  }
  return 0;
}

std::vector<uint64_t> Tags(const std::vector<Captured>& got) {
  std::vector<uint64_t> tags;
  for (const Captured& c : got) tags.push_back(c.call.args[0]);
  return tags;
}

// The records reporting a run of changes: contiguous generations, and
// together every kind of change made. Syscalls on other CPUs may split a run
// into several records, and a record may carry a later change's bit.
void ExpectChain(const std::vector<engine::SettingsChanged>& chain, uint64_t from, uint64_t to,
                 uint16_t what) {
  ASSERT_FALSE(chain.empty()) << "no settings_changed record";
  uint16_t all = 0;
  uint64_t at = from;
  for (const engine::SettingsChanged& c : chain) {
    EXPECT_EQ(c.old_generation, at);
    EXPECT_GT(c.new_generation, c.old_generation);
    at = c.new_generation;
    all |= c.what;
  }
  EXPECT_EQ(at, to);
  EXPECT_EQ(all, what);
}

class LiveSettingsTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(LiveSettingsTest, EveryKindOfChangeIsReportedOnce) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();

  uint64_t before = SettingsGeneration(h);
  kestrel_capture_settings s = CurrentSettings(h);
  s.snaplen = 256;
  ASSERT_EQ(pman_update_capture_settings(h, &s), 0);
  std::vector<engine::SettingsChanged> chain = session->AwaitSettingsChanged();
  ASSERT_EQ(chain.size(), 1u);
  EXPECT_EQ(chain[0].old_generation, before);
  EXPECT_EQ(chain[0].new_generation, before + 1);
  EXPECT_EQ(chain[0].what, KESTREL_CHANGED_SETTINGS);

  // Turning every syscall off is a change like any other, and still seen.
  std::vector<uint8_t> none(pman_syscall_table_size(), 0);
  ASSERT_EQ(pman_enforce_sc_set(h, none.data(), none.size()), 0);
  ExpectChain(session->AwaitSettingsChanged(), before + 1, before + 2, KESTREL_CHANGED_SYSCALLS);

  before = SettingsGeneration(h);
  ASSERT_EQ(pman_set_syscall_drop_class(h, SYS_getppid, KESTREL_DROP_NEVER), 0);
  ASSERT_EQ(pman_mark_single_64bit_syscall(h, SYS_getppid, true), 0);
  ExpectChain(session->AwaitSettingsChanged(), before, before + 2,
              KESTREL_CHANGED_DROP_CLASSES | KESTREL_CHANGED_SYSCALLS);

  before = SettingsGeneration(h);
  ASSERT_EQ(pman_set_omitted_params(h, KESTREL_OMIT_OPEN_PATH), 0);
  ExpectChain(session->AwaitSettingsChanged(), before, before + 1, KESTREL_CHANGED_OMITTED);

  // Nothing changed: nothing reported, and the record itself is not a thread's.
  // The tagged call is the positive control: the drain did see records.
  constexpr uint64_t kTag = 0x6e6f6368;
  TaggedGetppid(kTag);
  size_t tagged = 0;
  for (const auto& bytes : session->DrainRaw()) {
    const auto* hdr = reinterpret_cast<const kestrel_record_header*>(bytes.data());
    EXPECT_NE(hdr->type, KESTREL_EVT_SETTINGS_CHANGED);
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(hdr, bytes.size());
    ASSERT_TRUE(view.ok()) << view.status();
    if (hdr->type != KESTREL_EVT_GENERIC_SYSCALL || hdr->tid != CurrentTid()) continue;
    absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
    ASSERT_TRUE(call.ok()) << call.status();
    tagged += call->args[0] == kTag;
  }
  EXPECT_EQ(tagged, 1u);

  // With no syscall interesting the hook can go (pman_follow_syscall_set),
  // and the first syscall made interesting brings it back, reporting what
  // changed while it was away.
  before = SettingsGeneration(h);
  ASSERT_EQ(pman_enforce_sc_set(h, none.data(), none.size()), 0);
  EXPECT_EQ(pman_follow_syscall_set(h), 0);
  EXPECT_EQ(pman_follow_syscall_set(h), 0);
  ASSERT_EQ(pman_mark_single_64bit_syscall(h, SYS_getppid, true), 0);
  EXPECT_EQ(pman_follow_syscall_set(h), 1);
  ExpectChain(session->AwaitSettingsChanged(), before, before + 2, KESTREL_CHANGED_SYSCALLS);
  constexpr uint64_t kBackTag = 0x6261636b;
  TaggedGetppid(kBackTag);
  const std::vector<Captured> back = session->DrainThread(CurrentTid());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].call.args[0], kBackTag);
}

TEST_P(LiveSettingsTest, RefusedChangesChangeNothing) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  const kestrel_capture_settings good = CurrentSettings(h);
  const uint64_t generation = SettingsGeneration(h);

  kestrel_capture_settings bad = good;
  bad.dropping_mode = 1;
  bad.sampling_ratio = 0;
  EXPECT_EQ(pman_update_capture_settings(h, &bad), -EINVAL);
  bad = good;
  bad.snaplen = KESTREL_MAX_SNAPLEN + 1;
  EXPECT_EQ(pman_update_capture_settings(h, &bad), -EINVAL);
  bad = good;
  bad.fullcapture_port_lo = 9000;
  bad.fullcapture_port_hi = 8000;
  EXPECT_EQ(pman_update_capture_settings(h, &bad), -EINVAL);
  EXPECT_EQ(pman_set_syscall_drop_class(h, SYS_getppid, 3), -EINVAL);
  EXPECT_EQ(pman_set_syscall_drop_class(h, pman_syscall_table_size(), 1), -EINVAL);
  EXPECT_EQ(pman_mark_single_64bit_syscall(h, pman_syscall_table_size(), true), -EINVAL);
  EXPECT_EQ(pman_set_omitted_params(h, KESTREL_OMIT_ALL + 1), -EINVAL);

  const kestrel_capture_settings after = CurrentSettings(h);
  EXPECT_EQ(std::memcmp(&after, &good, sizeof(good)), 0);
  uint32_t omitted = 1;
  ASSERT_EQ(pman_get_omitted_params(h, &omitted), 0);
  EXPECT_EQ(omitted, 0u);
  EXPECT_EQ(SettingsGeneration(h), generation);
}

// Omitting the path of opened files skips only the path: the caller's name,
// dev and inode stay, a failed open still names what it asked for, and
// taking the omission back brings the path back on the next open.
TEST_P(LiveSettingsTest, AnOmittedOpenPathLeavesTheRestOfTheRecord) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  TempDir dir;
  const std::string path = dir.Touch("target");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  const int64_t dev =
      static_cast<int64_t>((static_cast<uint64_t>(major(st.st_dev)) << 20) | minor(st.st_dev));
  const std::string missing = dir.path() + "/missing";
  auto session = ProbeSession::Start({.syscalls = {SYS_openat}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();

  ASSERT_EQ(pman_set_omitted_params(h, KESTREL_OMIT_OPEN_PATH), 0);
  uint32_t omitted = 0;
  ASSERT_EQ(pman_get_omitted_params(h, &omitted), 0);
  EXPECT_EQ(omitted, KESTREL_OMIT_OPEN_PATH);
  const int without = openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(without, 0);
  close(without);
  ASSERT_EQ(openat(AT_FDCWD, missing.c_str(), O_RDONLY), -1);
  ASSERT_EQ(pman_set_omitted_params(h, 0), 0);
  const int with = openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(with, 0);
  close(with);

  std::vector<OwnedRecord> got;
  for (OwnedRecord& r : session->DrainRecords(CurrentTid())) {
    if (r.header().type == KESTREL_EVT_OPENAT) got.push_back(std::move(r));
  }
  ASSERT_EQ(got.size(), 3u);
  const engine::DecodedEvent a = got[0].Event();
  EXPECT_EQ(a.Int("fd"), without);
  EXPECT_EQ(a.String("name"), path);
  EXPECT_EQ(a.String("path"), "");
  EXPECT_EQ(a.Int("dev"), dev);
  EXPECT_EQ(a.Int("ino"), static_cast<int64_t>(st.st_ino));
  const engine::DecodedEvent b = got[1].Event();
  EXPECT_EQ(b.Int("fd"), -ENOENT);
  EXPECT_EQ(b.String("path"), missing);
  const engine::DecodedEvent c = got[2].Event();
  EXPECT_EQ(c.Int("fd"), with);
  EXPECT_EQ(c.String("path"), path);
  EXPECT_EQ(c.Int("ino"), static_cast<int64_t>(st.st_ino));
}

TEST_P(LiveSettingsTest, SnaplenAndPortRangeRoundTrip) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  kestrel_capture_settings s = CurrentSettings(session->handle());
  s.snaplen = 4096;
  s.fullcapture_port_lo = 8000;
  s.fullcapture_port_hi = 8080;
  ASSERT_EQ(pman_update_capture_settings(session->handle(), &s), 0);
  const kestrel_capture_settings got = CurrentSettings(session->handle());
  EXPECT_EQ(got.snaplen, 4096u);
  EXPECT_EQ(got.fullcapture_port_lo, 8000);
  EXPECT_EQ(got.fullcapture_port_hi, 8080);
}

TEST_P(LiveSettingsTest, TargetSetOfTgidsAndCgroupsHolds) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  const uint64_t cgroup = OwnCgroupId();
  ASSERT_NE(cgroup, 0u) << "no cgroup v2 hierarchy found";
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid},
                                      .trace_only_this_process = false,
                                      .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  const uint32_t me = static_cast<uint32_t>(getpid());
  auto apply = [&](auto&& edit) {
    kestrel_capture_settings s = CurrentSettings(h);
    s.target_tgid = 0;
    std::fill(std::begin(s.target_tgids), std::end(s.target_tgids), 0);
    std::fill(std::begin(s.target_cgroups), std::end(s.target_cgroups), 0);
    edit(s);
    ASSERT_EQ(pman_update_capture_settings(h, &s), 0);
  };

  apply([&](kestrel_capture_settings& s) {
    s.target_tgids[0] = 1;
    s.target_tgids[KESTREL_MAX_TARGET_TGIDS - 1] = me;  // any slot counts
  });
  TaggedGetppid(1);
  apply([&](kestrel_capture_settings& s) { s.target_tgids[0] = 1; });
  TaggedGetppid(2);
  apply([&](kestrel_capture_settings& s) { s.target_cgroups[1] = cgroup; });
  TaggedGetppid(3);
  apply([&](kestrel_capture_settings& s) { s.target_cgroups[0] = cgroup + 1'000'000; });
  TaggedGetppid(4);
  apply([&](kestrel_capture_settings& s) {
    s.target_cgroups[0] = cgroup + 1'000'000;
    s.target_tgid = me;  // either kind of member admits
  });
  TaggedGetppid(5);
  apply([&](kestrel_capture_settings& s) { s.own_tgid = me; });  // empty set: all but own
  TaggedGetppid(6);
  apply([](kestrel_capture_settings& s) { s.own_tgid = 0; });  // empty set: everything
  TaggedGetppid(7);

  EXPECT_EQ(Tags(session->DrainThread(CurrentTid())), (std::vector<uint64_t>{1, 3, 5, 7}));
}

TEST_P(LiveSettingsTest, SamplingKeepsOneInNBetweenMarkers) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start(
      {.syscalls = {SYS_getppid, SYS_fadvise64, SYS_getuid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  // The sampling tick is per CPU: on one CPU exactly every Nth call is kept.
  ScopedCpuPin pin(0);
  ASSERT_EQ(pman_set_syscall_drop_class(h, SYS_fadvise64, KESTREL_DROP_NEVER), 0);
  ASSERT_EQ(pman_set_syscall_drop_class(h, SYS_getuid, KESTREL_DROP_ALWAYS), 0);
  ASSERT_FALSE(session->AwaitSettingsChanged().empty());
  const pman_stats before = session->Stats();

  kestrel_capture_settings s = CurrentSettings(h);
  s.dropping_mode = 1;
  s.sampling_ratio = 10;
  ASSERT_EQ(pman_update_capture_settings(h, &s), 0);
  for (uint64_t tag = 0; tag < 100; ++tag) TaggedGetppid(tag);
  for (int i = 0; i < 5; ++i) syscall(SYS_fadvise64, -1L, 0L, 0L, 0L);
  for (int i = 0; i < 5; ++i) syscall(SYS_getuid);
  s.dropping_mode = 0;
  ASSERT_EQ(pman_update_capture_settings(h, &s), 0);
  for (uint64_t tag = 1000; tag < 1003; ++tag) TaggedGetppid(tag);
  const pman_stats after = session->Stats();

  std::vector<uint64_t> getppid_tags;
  int closes = 0, getuids = 0, starts = 0, stops = 0;
  // Only this process is traced, so every record in the ring is ours or a
  // control record.
  const std::vector<std::vector<uint8_t>> all = session->DrainRaw();
  const uint64_t consumed = all.size();
  for (const auto& bytes : all) {
    auto view = engine::RecordView::Parse(bytes.data(), bytes.size());
    ASSERT_TRUE(view.ok()) << view.status();
    const uint16_t type = view->header().type;
    if (type == KESTREL_EVT_SETTINGS_CHANGED) continue;
    if (type == KESTREL_EVT_DROP_START || type == KESTREL_EVT_DROP_STOP) {
      auto marker = engine::DecodeSamplingMarker(*view);
      ASSERT_TRUE(marker.ok()) << marker.status();
      EXPECT_EQ(marker->sampling_ratio, 10u);
      EXPECT_EQ(view->header().cpu, 0);
      if (marker->start) {
        EXPECT_TRUE(getppid_tags.empty()) << "DROP_START after a sampled record";
        ++starts;
      } else {
        EXPECT_EQ(getppid_tags.size(), 10u) << "DROP_STOP before the last sampled record";
        ++stops;
      }
      continue;
    }
    auto call = engine::DecodeGenericSyscall(*view);
    ASSERT_TRUE(call.ok()) << call.status();
    if (call->id == SYS_getppid) getppid_tags.push_back(call->args[0]);
    closes += call->id == SYS_fadvise64;
    getuids += call->id == SYS_getuid;
  }
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(stops, 1);
  EXPECT_EQ(getppid_tags,
            (std::vector<uint64_t>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 1000, 1001, 1002}));
  EXPECT_EQ(closes, 5);   // never dropped
  EXPECT_EQ(getuids, 0);  // always dropped
  // Sampled-out calls are counted as drops: nothing vanishes unaccounted.
  EXPECT_EQ(after.total.drops_sampling - before.total.drops_sampling, 90u + 5u);
  EXPECT_EQ(after.total.records_written - before.total.records_written, consumed);
}

// A load generator calls getppid with increasing tags while the main thread
// toggles it: every call whose tag was taken after the disable returned is
// missing, and every one after the enable returned is there. Only the one
// call in flight at each toggle may go either way (the toggle's generation
// bump is a locked instruction, so the store is visible when it returns).
TEST_P(LiveSettingsTest, TogglesUnderLoadTakeEffectWithinOneSyscall) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start(
      {.buffer_bytes = 16 << 20, .syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  std::atomic<uint64_t> next_tag{0};
  std::atomic<bool> stop{false};
  uint32_t loader_tid = 0;
  std::thread loader([&] {
    loader_tid = CurrentTid();
    while (!stop.load(std::memory_order_relaxed)) {
      TaggedGetppid(next_tag.fetch_add(1, std::memory_order_seq_cst));
    }
  });
  // Each phase lasts a number of the loader's calls, not a time: on a busy
  // machine a few milliseconds may hold no call at all.
  auto let_loader_make = [&](uint64_t n) {
    const uint64_t target = next_tag.load() + n;
    while (next_tag.load() < target) std::this_thread::yield();
  };
  let_loader_make(200);
  const uint64_t before_disable = next_tag.load();
  const int disable_rc = pman_mark_single_64bit_syscall(session->handle(), SYS_getppid, false);
  const uint64_t after_disable = next_tag.load();
  let_loader_make(200);
  const uint64_t before_enable = next_tag.load();
  const int enable_rc = pman_mark_single_64bit_syscall(session->handle(), SYS_getppid, true);
  const uint64_t after_enable = next_tag.load();
  let_loader_make(200);
  stop = true;
  loader.join();
  ASSERT_EQ(disable_rc, 0);
  ASSERT_EQ(enable_rc, 0);
  const uint64_t last = next_tag.load();

  std::set<uint64_t> seen;
  for (const Captured& c : session->DrainThread(loader_tid)) seen.insert(c.call.args[0]);
  ASSERT_GE(before_enable, after_disable + 200);
  for (uint64_t t = 0; t + 1 < before_disable; ++t) ASSERT_TRUE(seen.count(t)) << t;
  for (uint64_t t = after_disable; t + 1 < before_enable; ++t) {
    ASSERT_FALSE(seen.count(t)) << t;
  }
  for (uint64_t t = after_enable; t < last; ++t) ASSERT_TRUE(seen.count(t)) << t;
  EXPECT_EQ(session->Stats().total.drops_ring_full, 0u);
}

KESTREL_INSTANTIATE_STORAGE_MODES(LiveSettingsTest);

}  // namespace
}  // namespace kestrel::testing
