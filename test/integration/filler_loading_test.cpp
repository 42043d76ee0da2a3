// Lazy filler loading: pman_load loads no fill_* program; each comes with
// the first syscall that needs it, before the table entry flips, from this
// process or from a controller in another one (`kestrel syscalls`).
#include <bpf/bpf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "host_files.h"
#include "internal/libpman_bench.h"  // PMAN_OPT_TEST_FAIL_FILLER_LOAD
#include "kestrel_cli.h"
#include "probe_session.h"
#include "temp_dir.h"

namespace kestrel::testing {
namespace {

bool IsFillerName(std::string_view name) { return name.starts_with("fill_"); }

std::vector<pman_program_stats> ProgramStats(pman_handle* h) {
  const int n = pman_get_program_stats(h, nullptr, 0);
  EXPECT_GT(n, 0);
  std::vector<pman_program_stats> stats(n > 0 ? n : 0);
  EXPECT_EQ(pman_get_program_stats(h, stats.data(), stats.size()), n);
  return stats;
}

const pman_program_stats* Find(const std::vector<pman_program_stats>& stats, const char* name) {
  for (const pman_program_stats& p : stats) {
    if (std::string_view(p.name) == name) return &p;
  }
  return nullptr;
}

int LoadedFillers(const std::vector<pman_program_stats>& stats) {
  int n = 0;
  for (const pman_program_stats& p : stats) n += IsFillerName(p.name) && p.loaded ? 1 : 0;
  return n;
}

// Ids of every BPF program in the kernel, as bpftool prog show lists them.
std::set<uint32_t> ProgramIds() {
  std::set<uint32_t> ids;
  for (uint32_t id = 0; bpf_prog_get_next_id(id, &id) == 0;) ids.insert(id);
  return ids;
}

struct KernelProgram {
  std::string name;
  std::set<uint32_t> map_ids;
};

KernelProgram Describe(uint32_t id) {
  KernelProgram p;
  const int fd = bpf_prog_get_fd_by_id(id);
  if (fd < 0) return p;
  std::vector<uint32_t> map_ids(64);
  bpf_prog_info info{};
  info.nr_map_ids = map_ids.size();
  info.map_ids = reinterpret_cast<uint64_t>(map_ids.data());
  uint32_t len = sizeof(info);
  if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0) {
    p.name = info.name;
    p.map_ids.insert(map_ids.begin(), map_ids.begin() + std::min<size_t>(info.nr_map_ids, 64));
  }
  close(fd);
  return p;
}

// Ids of the maps `pin_dir` pinned under maps/: every map of that probe.
std::set<uint32_t> PinnedProbeMapIds(const std::string& pin_dir) {
  std::set<uint32_t> ids;
  const std::string maps = pin_dir + "/maps";
  for (const auto& entry : std::filesystem::directory_iterator(maps)) {
    const int fd = bpf_obj_get(entry.path().c_str());
    if (fd < 0) continue;
    bpf_map_info info{};
    uint32_t len = sizeof(info);
    if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0) ids.insert(info.id);
    close(fd);
  }
  return ids;
}

// Every program in the kernel that uses one of the maps `map_ids` (a
// probe's own maps, shared with no other probe): that probe's programs, as
// bpftool prog show would list them.
std::vector<KernelProgram> ProgramsUsing(const std::set<uint32_t>& map_ids) {
  std::vector<KernelProgram> ours;
  for (uint32_t id : ProgramIds()) {
    const KernelProgram p = Describe(id);
    for (uint32_t m : p.map_ids) {
      if (map_ids.count(m)) {
        ours.push_back(p);
        break;
      }
    }
  }
  return ours;
}

bool EnterPrivateBpffs() {
  if (unshare(CLONE_NEWNS) != 0) return false;
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700") == 0;
}

std::vector<uint8_t> InterestingTable(pman_handle* h) {
  std::vector<uint8_t> table(pman_syscall_table_size());
  EXPECT_EQ(pman_get_syscall_tables(h, table.data(), nullptr, table.size()), 0);
  return table;
}

// Opens `path` with openat and checks the one record this thread wrote
// decodes exactly, from the filler's parameters too.
void ExpectDecodedOpenat(ProbeSession& session, const std::string& path) {
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  session.DrainRecords(CurrentTid());
  const int fd = openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  close(fd);
  const std::vector<OwnedRecord> got = session.DrainRecords(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header().type, KESTREL_EVT_OPENAT);
  EXPECT_EQ(got[0].header().flags & KESTREL_RECORD_PARAMS_MISSING, 0);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("fd"), fd);
  EXPECT_EQ(e.Int("dirfd"), AT_FDCWD);
  EXPECT_EQ(e.String("name"), path);
  EXPECT_EQ(e.Int("flags"), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(e.String("path"), path);
  EXPECT_EQ(e.Int("ino"), static_cast<int64_t>(st.st_ino));
  EXPECT_EQ(e.Int("dev"), KernelDev(st.st_dev));
}

class FillerLoadingTest : public ::testing::Test {
 protected:
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }
  TempDir dir_;
};

TEST_F(FillerLoadingTest, GetppidCaptureLoadsNoFiller) {
  ASSERT_TRUE(EnterPrivateBpffs()) << "private bpffs: " << std::strerror(errno);
  const std::string pins = "/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-getppid";
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  const std::vector<pman_program_stats> stats = ProgramStats(session->handle());
  EXPECT_EQ(LoadedFillers(stats), 0);
  int loaded = 0;
  for (const pman_program_stats& p : stats) {
    if (!p.loaded) continue;
    ++loaded;
    EXPECT_GT(p.verified_insns, 0u) << p.name;
  }
  EXPECT_EQ(loaded, 3);  // the sys_exit dispatcher and the two sched hooks
  ASSERT_NE(Find(stats, "kestrel_sys_exit"), nullptr);
  EXPECT_TRUE(Find(stats, "kestrel_sys_exit")->loaded);
  ASSERT_EQ(pman_pin(session->handle(), pins.c_str()), 0);
  const std::vector<KernelProgram> ours = ProgramsUsing(PinnedProbeMapIds(pins));
  EXPECT_EQ(ours.size(), 3u);
  for (const KernelProgram& p : ours) EXPECT_FALSE(IsFillerName(p.name)) << p.name;
}

TEST_F(FillerLoadingTest, EnablingOpenatLoadsItsFillerAndTheRecordDecodes) {
  ASSERT_TRUE(EnterPrivateBpffs()) << "private bpffs: " << std::strerror(errno);
  const std::string pins = "/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-openat";
  const std::string path = dir_.Touch("target");
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  {
    const std::vector<pman_program_stats> before_stats = ProgramStats(h);
    ASSERT_NE(Find(before_stats, "fill_OPENAT"), nullptr);
    ASSERT_FALSE(Find(before_stats, "fill_OPENAT")->loaded);
  }

  ASSERT_EQ(pman_mark_single_64bit_syscall(h, SYS_openat, true), 0);
  const std::vector<pman_program_stats> stats = ProgramStats(h);
  const pman_program_stats* openat_filler = Find(stats, "fill_OPENAT");
  ASSERT_NE(openat_filler, nullptr);
  EXPECT_TRUE(openat_filler->loaded);
  EXPECT_GT(openat_filler->verified_insns, 0u);
  EXPECT_EQ(LoadedFillers(stats), 1);
  int kernel_fillers = 0;
  ASSERT_EQ(pman_pin(h, pins.c_str()), 0);
  for (const KernelProgram& p : ProgramsUsing(PinnedProbeMapIds(pins))) {
    kernel_fillers += IsFillerName(p.name) ? 1 : 0;
  }
  EXPECT_EQ(kernel_fillers, 1);
  ExpectDecodedOpenat(*session, path);
}

TEST_F(FillerLoadingTest, AFailedFillerLoadLeavesTheTableAsItWas) {
  auto session =
      ProbeSession::Start({.syscalls = {SYS_getppid}, .flags = PMAN_OPT_TEST_FAIL_FILLER_LOAD});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  const std::vector<uint8_t> table = InterestingTable(h);
  const uint64_t generation = SettingsGeneration(h);

  const int rc = pman_mark_single_64bit_syscall(h, SYS_openat, true);
  EXPECT_LT(rc, 0);
  EXPECT_EQ(InterestingTable(h), table);
  std::vector<uint8_t> grown = table;
  grown[SYS_openat] = 1;
  grown[SYS_close] = 1;  // no filler: it would flip alone if the set were split
  EXPECT_LT(pman_enforce_sc_set(h, grown.data(), grown.size()), 0);
  EXPECT_EQ(InterestingTable(h), table);
  EXPECT_EQ(SettingsGeneration(h), generation);
  EXPECT_EQ(LoadedFillers(ProgramStats(h)), 0);
  // A syscall that needs no filler still goes through.
  EXPECT_EQ(pman_mark_single_64bit_syscall(h, SYS_getpid, true), 0);
}

TEST_F(FillerLoadingTest, EagerFlagLoadsEveryFiller) {
  auto session =
      ProbeSession::Start({.syscalls = {SYS_getppid}, .flags = PMAN_OPT_LOAD_ALL_FILLERS});
  ASSERT_NE(session, nullptr);
  const std::vector<pman_program_stats> stats = ProgramStats(session->handle());
  int fillers = 0;
  for (const pman_program_stats& p : stats) {
    if (!IsFillerName(p.name)) continue;
    ++fillers;
    EXPECT_TRUE(p.loaded) << p.name;
    EXPECT_GT(p.verified_insns, 0u) << p.name;
  }
  EXPECT_GT(fillers, 10);
}

// pman_preload_fillers: the fillers come with pman_load, and enabling
// their syscalls afterwards loads nothing more.
TEST_F(FillerLoadingTest, PreloadedFillersLoadWithTheProbe) {
  pman_options options;
  pman_default_options(&options);
  options.buffer_bytes = PMAN_BUFFER_BYTES_SMALL;
  pman_handle* raw = nullptr;
  ASSERT_EQ(pman_init(&options, &raw), 0);
  std::unique_ptr<pman_handle, decltype(&pman_close)> h(raw, &pman_close);
  std::vector<uint8_t> table(pman_syscall_table_size(), 0);
  table[SYS_openat] = 1;
  table[SYS_getppid] = 1;
  ASSERT_EQ(pman_open(raw), 0);
  EXPECT_LT(pman_preload_fillers(raw, table.data(), table.size() + 1), 0);
  ASSERT_EQ(pman_preload_fillers(raw, table.data(), table.size()), 0);
  ASSERT_EQ(pman_load(raw), 0);
  EXPECT_LT(pman_preload_fillers(raw, table.data(), table.size()), 0);  // after the load
  std::vector<pman_program_stats> stats = ProgramStats(raw);
  ASSERT_NE(Find(stats, "fill_OPENAT"), nullptr);
  EXPECT_TRUE(Find(stats, "fill_OPENAT")->loaded);
  EXPECT_EQ(LoadedFillers(stats), 1);
  // Preloading marks nothing interesting.
  EXPECT_EQ(InterestingTable(raw), std::vector<uint8_t>(table.size(), 0));
  ASSERT_EQ(pman_enforce_sc_set(raw, table.data(), table.size()), 0);
  EXPECT_EQ(InterestingTable(raw), table);
  stats = ProgramStats(raw);
  EXPECT_EQ(LoadedFillers(stats), 1);
}

TEST_F(FillerLoadingTest, KestrelSyscallsEnableOnAPinnedCaptureLoadsTheFiller) {
  ASSERT_TRUE(EnterPrivateBpffs()) << "private bpffs: " << std::strerror(errno);
  const std::string path = dir_.Touch("target");
  const std::string pins = "/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-fillers";
  {
    auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
    ASSERT_NE(session, nullptr);
    pman_handle* h = session->handle();
    ASSERT_EQ(pman_pin(h, pins.c_str()), 0);
    {
      const std::vector<pman_program_stats> before_stats = ProgramStats(h);
      ASSERT_NE(Find(before_stats, "fill_OPENAT"), nullptr);
      ASSERT_FALSE(Find(before_stats, "fill_OPENAT")->loaded);
    }

    ASSERT_EQ(RunKestrel({"syscalls", "enable", "openat", "--pin-dir", pins}).exit_code, 0);
    EXPECT_EQ(InterestingTable(h)[SYS_openat], 1);
    // Loaded by the other process: the slot says so, the kernel the size.
    const std::vector<pman_program_stats> after_stats = ProgramStats(h);
    const pman_program_stats* filler = Find(after_stats, "fill_OPENAT");
    ASSERT_NE(filler, nullptr);
    EXPECT_TRUE(filler->loaded);
    EXPECT_GT(filler->verified_insns, 0u);
    ExpectDecodedOpenat(*session, path);
  }
  struct stat st {};
  EXPECT_NE(stat(pins.c_str(), &st), 0) << pins << " survived the capture";
}

}  // namespace
}  // namespace kestrel::testing
