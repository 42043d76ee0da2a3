// Control of a pinned capture from another process: the `kestrel` CLI run as
// a child, and a forked writer racing this process for the writer lock.
// Each test mounts a private bpffs in its own mount namespace, so its pins
// are invisible to everything else and cannot outlive it.
#include <bpf/bpf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kestrel_cli.h"
#include "libpman_control.h"
#include "probe_session.h"
#include "storage_modes.h"

namespace kestrel::testing {
namespace {

bool EnterPrivateBpffs() {
  if (unshare(CLONE_NEWNS) != 0) return false;
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700") == 0;
}

std::string UniquePinDir(const char* name) {
  return "/sys/fs/bpf/kestrel-test-" + std::to_string(getpid()) + "-" + name;
}

mode_t Mode(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

class PinnedControlTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  void SetUp() override {
    if (!HasBpfPrivileges()) GTEST_SKIP() << "needs root or CAP_BPF+CAP_PERFMON";
    ASSERT_TRUE(EnterPrivateBpffs()) << "private bpffs: " << std::strerror(errno);
  }
};

TEST_P(PinnedControlTest, SecondProcessTogglesAndSetsOnTheRunningCapture) {
  const std::string dir = UniquePinDir("cli");
  {
    auto session = ProbeSession::Start(
        {.syscalls = {SYS_getppid, SYS_fadvise64}, .settings_storage = GetParam()});
    ASSERT_NE(session, nullptr);
    pman_handle* h = session->handle();
    ASSERT_EQ(pman_pin(h, dir.c_str()), 0);
    EXPECT_EQ(Mode(dir), 0700u);
    for (const char* pin : {"control", "counters", "rings"})
      EXPECT_EQ(Mode(dir + "/" + pin), 0600u);
    EXPECT_EQ(pman_pin(h, dir.c_str()), -EBADFD);  // once per handle
    const uint64_t g0 = SettingsGeneration(h);

    CliResult r = RunKestrel({"syscalls", "disable", "getppid", "--pin-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TaggedGetppid(1);
    r = RunKestrel({"syscalls", "enable", "getppid", "--pin-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TaggedGetppid(2);
    r = RunKestrel({"settings", "set", "drop_failed=1", "snaplen=512", "--pin-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    syscall(SYS_fadvise64, -1L, 0L, 0L, 0L);
    TaggedGetppid(3);

    std::vector<uint64_t> tags;
    for (const Captured& c : session->DrainThread(CurrentTid())) {
      if (c.call.id == SYS_getppid) tags.push_back(c.call.args[0]);
      EXPECT_NE(c.call.id, static_cast<uint32_t>(SYS_fadvise64)) << "a failed fadvise64 was kept";
    }
    EXPECT_EQ(tags, (std::vector<uint64_t>{2, 3}));
    EXPECT_EQ(CurrentSettings(h).snaplen, 512u);
    EXPECT_EQ(CurrentSettings(h).drop_failed, 1u);
    EXPECT_EQ(SettingsGeneration(h), g0 + 3);

    // Dropping mode driven from the CLI: a class per syscall, then the mode.
    r = RunKestrel({"syscalls", "drop-class", "always", "getppid", "--pin-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = RunKestrel({"settings", "set", "dropping_mode=1", "sampling_ratio=2", "--pin-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TaggedGetppid(4);
    r = RunKestrel({"syscalls", "drop-class", "never", "getppid", "--pin-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TaggedGetppid(5);
    TaggedGetppid(6);
    tags.clear();
    for (const Captured& c : session->DrainThread(CurrentTid())) {
      if (c.call.id == SYS_getppid) tags.push_back(c.call.args[0]);
    }
    EXPECT_EQ(tags, (std::vector<uint64_t>{5, 6}));

    r = RunKestrel({"settings", "get", "snaplen", "drop_failed", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "snaplen=512\ndrop_failed=1\n");
    r = RunKestrel({"syscalls", "list", "--pin-dir", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" getppid "), std::string::npos);
    EXPECT_NE(r.out.find("110 getppid                  on\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("257 openat                   off\n"), std::string::npos) << r.out;
  }
  // pman_close removed the pins and the directory.
  struct stat st {};
  EXPECT_NE(stat(dir.c_str(), &st), 0);
}

TEST_P(PinnedControlTest, BadKeysValuesAndNamesAreRefusedWithNothingChanged) {
  const std::string dir = UniquePinDir("refuse");
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  ASSERT_EQ(pman_pin(h, dir.c_str()), 0);
  const kestrel_capture_settings before = CurrentSettings(h);
  const uint64_t g0 = SettingsGeneration(h);

  const std::vector<std::vector<std::string>> refused = {
      {"settings", "set", "bogus=1"},
      {"settings", "set", "snaplen=abc"},
      {"settings", "set", "snaplen=100", "drop_failed=7"},  // all or nothing
      {"settings", "set", "snaplen"},
      {"settings", "set", "boot_time_ns=5"},
      {"settings", "set", "target_tgids=1,2,3,4,5,6,7,8,9"},
      {"settings", "set", "fullcapture_ports=90-80"},
      {"settings", "get", "bogus"},
      {"syscalls", "enable", "openat", "nosuchcall"},
      {"syscalls", "disable", "getppid,"},
      {"syscalls", "drop-class", "sometimes", "getppid"},
      {"syscalls", "drop-class", "never"},
  };
  for (std::vector<std::string> args : refused) {
    args.insert(args.end(), {"--pin-dir", dir});
    const CliResult r = RunKestrel(args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << ": " << r.err;
    EXPECT_FALSE(r.err.empty());
  }
  const kestrel_capture_settings after = CurrentSettings(h);
  EXPECT_EQ(std::memcmp(&before, &after, sizeof(before)), 0);
  EXPECT_EQ(SettingsGeneration(h), g0);

  pman_control* c = nullptr;
  ASSERT_EQ(pman_control_open(dir.c_str(), nullptr, nullptr, &c), 0);
  EXPECT_EQ(pman_control_is_syscall_interesting(c, SYS_openat), 0);
  EXPECT_EQ(pman_control_is_syscall_interesting(c, SYS_getppid), 1);
  EXPECT_EQ(pman_control_mark_syscall(c, pman_syscall_table_size(), true), -EINVAL);
  EXPECT_EQ(pman_control_set_omitted_params(c, KESTREL_OMIT_ALL + 1), -EINVAL);
  EXPECT_EQ(SettingsGeneration(h), g0);
  // A good one through the pinned block is the loader's to see.
  ASSERT_EQ(pman_control_set_omitted_params(c, KESTREL_OMIT_OPEN_PATH), 0);
  uint32_t omitted = 0;
  ASSERT_EQ(pman_control_get_omitted_params(c, &omitted), 0);
  EXPECT_EQ(omitted, KESTREL_OMIT_OPEN_PATH);
  ASSERT_EQ(pman_get_omitted_params(h, &omitted), 0);
  EXPECT_EQ(omitted, KESTREL_OMIT_OPEN_PATH);
  EXPECT_EQ(SettingsGeneration(h), g0 + 1);
  pman_control_close(c);
  EXPECT_NE(RunKestrel({"settings", "get", "--pin-dir", dir + "-missing"}).exit_code, 0);
}

// Read-modify-write from two processes at once: with the writer lock no
// increment is lost. (sampling_ratio is free to count: dropping mode is off.)
TEST_P(PinnedControlTest, WritersInTwoProcessesDoNotInterleave) {
  const std::string dir = UniquePinDir("lock");
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(pman_pin(session->handle(), dir.c_str()), 0);
  const uint32_t start = CurrentSettings(session->handle()).sampling_ratio;
  constexpr uint32_t kEdits = 5000;
  auto increment = [](void*, kestrel_capture_settings* s) {
    ++s->sampling_ratio;
    // Hand the CPU to the other writer mid-edit: without the lock it would
    // read the same value now and one of the increments would be lost.
    sched_yield();
    return 0;
  };
  auto edit_many = [&](pman_control* c) {
    bool ok = true;
    for (uint32_t i = 0; i < kEdits && ok; ++i) {
      ok = pman_control_edit_capture_settings(c, increment, nullptr) == 0;
    }
    pman_control_close(c);
    return ok;
  };
  int ready[2];
  ASSERT_EQ(pipe2(ready, O_CLOEXEC), 0);
  const pid_t child = fork();
  if (child == 0) {
    pman_control* c = nullptr;
    const bool opened = pman_control_open(dir.c_str(), nullptr, nullptr, &c) == 0;
    const char go = 1;
    if (write(ready[1], &go, 1) != 1 || !opened) _exit(1);
    _exit(edit_many(c) ? 0 : 1);
  }
  pman_control* c = nullptr;
  ASSERT_EQ(pman_control_open(dir.c_str(), nullptr, nullptr, &c), 0);
  char go = 0;
  ASSERT_EQ(read(ready[0], &go, 1), 1);  // both start together
  EXPECT_TRUE(edit_many(c));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  close(ready[0]);
  close(ready[1]);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(CurrentSettings(session->handle()).sampling_ratio, start + 2 * kEdits);
}

// Nothing that could reach the settings leaks into a child across exec.
TEST_P(PinnedControlTest, EveryDescriptorOfTheCaptureIsCloseOnExec) {
  const std::string dir = UniquePinDir("cloexec");
  auto session = ProbeSession::Start(
      {.cpus_per_buffer = 1, .syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(pman_pin(session->handle(), dir.c_str()), 0);
  pman_control* c = nullptr;
  ASSERT_EQ(pman_control_open(dir.c_str(), nullptr, nullptr, &c), 0);
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const std::string target = std::filesystem::read_symlink(entry.path(), ec).string();
    if (ec || (target.find("bpf") == std::string::npos && target != dir)) continue;
    const int fd = std::stoi(entry.path().filename().string());
    const int flags = fcntl(fd, F_GETFD);
    if (flags < 0) continue;  // the iterator's own descriptor, already gone
    EXPECT_TRUE(flags & FD_CLOEXEC) << "fd " << fd << " -> " << target;
    ++checked;
  }
  pman_control_close(c);
  EXPECT_GE(checked, 6) << "expected the maps, the program, the rings and the pin directory";
}

TEST_P(PinnedControlTest, LockedSettingsRefuseEveryWriter) {
  const std::string dir = UniquePinDir("frozen");
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  pman_handle* h = session->handle();
  ASSERT_EQ(pman_pin(h, dir.c_str()), 0);

  // A controller's writable mapping keeps the map from freezing.
  pman_control* writer = nullptr;
  ASSERT_EQ(pman_control_open(dir.c_str(), nullptr, nullptr, &writer), 0);
  EXPECT_EQ(pman_lock_settings(h), -EBUSY);
  pman_control_close(writer);
  kestrel_capture_settings s = CurrentSettings(h);
  s.snaplen = 1000;
  ASSERT_EQ(pman_update_capture_settings(h, &s), 0);  // still live after the refusal

  ASSERT_EQ(pman_lock_settings(h), 0);
  s.snaplen = 2000;
  EXPECT_EQ(pman_update_capture_settings(h, &s), -EPERM);
  EXPECT_EQ(pman_mark_single_64bit_syscall(h, SYS_getppid, false), -EPERM);
  EXPECT_EQ(CurrentSettings(h).snaplen, 1000u);

  const CliResult r = RunKestrel({"syscalls", "disable", "getppid", "--pin-dir", dir});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("locked"), std::string::npos) << r.err;
  pman_control* reader = nullptr;
  ASSERT_EQ(pman_control_open(dir.c_str(), nullptr, nullptr, &reader), 0);
  EXPECT_EQ(pman_control_is_read_only(reader), 1);
  kestrel_capture_settings seen{};
  EXPECT_EQ(pman_control_get_capture_settings(reader, &seen), 0);
  EXPECT_EQ(seen.snaplen, 1000u);
  pman_control_close(reader);

  // The probe keeps capturing with the frozen settings.
  TaggedGetppid(42);
  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].call.args[0], 42u);
}

struct MapFacts {
  uint32_t id = 0;
  std::string name;
  uint32_t type = 0, flags = 0, value_size = 0, max_entries = 0;
};

MapFacts FactsOfMapFd(int fd) {
  bpf_map_info info{};
  uint32_t len = sizeof(info);
  EXPECT_EQ(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
  return {info.id, info.name, info.type, info.map_flags, info.value_size, info.max_entries};
}

// The names of the maps the sys_exit program that uses map `map_id` uses;
// empty when no such program is loaded. Other probes on the machine use
// maps of their own, so only ours matches.
std::vector<std::string> MapsOfProgramUsing(uint32_t map_id) {
  for (uint32_t id = 0; bpf_prog_get_next_id(id, &id) == 0;) {
    const int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0) continue;
    std::vector<uint32_t> ids(64);
    bpf_prog_info info{};
    info.nr_map_ids = ids.size();
    info.map_ids = reinterpret_cast<uintptr_t>(ids.data());
    uint32_t len = sizeof(info);
    const bool read = bpf_obj_get_info_by_fd(fd, &info, &len) == 0;
    close(fd);
    if (!read || std::string_view(info.name) != "kestrel_sys_exi") continue;
    ids.resize(std::min<size_t>(info.nr_map_ids, ids.size()));
    if (std::find(ids.begin(), ids.end(), map_id) == ids.end()) continue;
    std::vector<std::string> names;
    for (uint32_t m : ids) {
      const int map_fd = bpf_map_get_fd_by_id(m);
      if (map_fd < 0) continue;
      names.push_back(FactsOfMapFd(map_fd).name);
      close(map_fd);
    }
    return names;
  }
  return {};
}

TEST_P(PinnedControlTest, TheChosenStorageModeIsTheOneLoaded) {
  const std::string dir = UniquePinDir("mode");
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}, .settings_storage = GetParam()});
  ASSERT_NE(session, nullptr);
  ASSERT_EQ(pman_pin(session->handle(), dir.c_str()), 0);
  const int fd = bpf_obj_get((dir + "/control").c_str());
  ASSERT_GE(fd, 0);
  const MapFacts control = FactsOfMapFd(fd);
  close(fd);
  EXPECT_EQ(control.type, BPF_MAP_TYPE_ARRAY);
  EXPECT_TRUE(control.flags & BPF_F_MMAPABLE);
  EXPECT_EQ(control.max_entries, 1u);
  // Exactly one block in either mode: no stray copies in the .bss.
  EXPECT_EQ(control.value_size, sizeof(kestrel_control_block));
  const std::vector<std::string> maps = MapsOfProgramUsing(control.id);
  ASSERT_FALSE(maps.empty()) << "no kestrel_sys_exit program uses the pinned control map";
  const bool has_array = std::count(maps.begin(), maps.end(), KESTREL_CONTROL_MAP_NAME) > 0;
  const bool has_bss = std::any_of(maps.begin(), maps.end(),
                                   [](const std::string& n) { return n.ends_with(".bss"); });
  if (GetParam() == PMAN_SETTINGS_STORAGE_ARRAY) {
    EXPECT_EQ(control.name, KESTREL_CONTROL_MAP_NAME);
    EXPECT_TRUE(has_array);
    EXPECT_FALSE(has_bss);
  } else {
    EXPECT_TRUE(control.name.ends_with(".bss")) << control.name;
    EXPECT_TRUE(has_bss);
    EXPECT_FALSE(has_array);
  }
  // And the probe really reads it: a toggle through the mapping takes effect.
  TaggedGetppid(7);
  const std::vector<Captured> got = session->DrainThread(CurrentTid());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].call.args[0], 7u);
  ASSERT_EQ(pman_mark_single_64bit_syscall(session->handle(), SYS_getppid, false), 0);
  EXPECT_FALSE(session->AwaitSettingsChanged().empty());
  TaggedGetppid(8);
  EXPECT_TRUE(session->DrainThread(CurrentTid()).empty());
}

// A pin that looks like the control map of this test's mode but is not this
// build's (one word longer) is refused rather than misread, and nothing
// is written to it.
TEST_P(PinnedControlTest, AForeignControlMapIsRefused) {
  const std::string dir = UniquePinDir("foreign");
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  const bool array = GetParam() == PMAN_SETTINGS_STORAGE_ARRAY;
  LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
  const int fd =
      bpf_map_create(BPF_MAP_TYPE_ARRAY, array ? KESTREL_CONTROL_MAP_NAME : "foreign.bss",
                     sizeof(uint32_t), sizeof(kestrel_control_block) + 8, 1, &opts);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  const std::string pin = dir + "/control";
  ASSERT_EQ(bpf_obj_pin(fd, pin.c_str()), 0);
  pman_control* c = nullptr;
  EXPECT_LT(pman_control_open(dir.c_str(), nullptr, nullptr, &c), 0);
  EXPECT_EQ(c, nullptr);
  std::vector<uint8_t> value(sizeof(kestrel_control_block) + 8, 0xFF);
  const uint32_t zero = 0;
  ASSERT_EQ(bpf_map_lookup_elem(fd, &zero, value.data()), 0);
  EXPECT_EQ(std::count(value.begin(), value.end(), 0), static_cast<long>(value.size()));
  unlink(pin.c_str());
  rmdir(dir.c_str());
  close(fd);
}

KESTREL_INSTANTIATE_STORAGE_MODES(PinnedControlTest);

}  // namespace
}  // namespace kestrel::testing
