// What the probe says about an opened file and an exec'd executable beyond
// their names: whether the open created the file (the kernel's
// FMODE_CREATED), which overlayfs layer a file or an executable is on, and
// when the exec'ing process's pid namespace's init started. Real syscalls,
// on a real overlay mounted in a child's private mount namespace; the
// records' parameters are checked, then the Falco fields a ThreadTable
// gives for them (evt.is_open_create, fd.is_upper_layer, fd.is_lower_layer,
// proc.is_exe_lower_layer, proc.pidns_init_start_ts,
// proc.exe_ino.ctime_duration_pidns_start).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/openat2.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "applied_events.h"
#include "engine/decode/flag_sets.h"
#include "engine/decode/record_view.h"
#include "engine/fields/event_context.h"
#include "engine/fields/field_extractor.h"
#include "engine/fields/field_registry.h"
#include "engine/state/state_syscalls.h"
#include "engine/state/thread_table.h"
#include "engine/state/user_directory.h"
#include "host_files.h"
#include "probe_session.h"
#include "shared/event_schema.h"
#include "temp_dir.h"

namespace kestrel::testing {
namespace {

uint64_t Nanos(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int Reap(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// One record with the Falco fields read right after the table applied it.
struct Seen {
  uint32_t tid = 0;
  uint16_t type = 0;
  std::vector<uint8_t> bytes;
  std::map<std::string, std::string> fields;  // "<none>" without a value

  engine::DecodedEvent Event() const {
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(bytes.data(), bytes.size());
    return *engine::DecodedEvent::Decode(*view);
  }
};

class OpenExecFactsTest : public ::testing::Test {
 protected:
  // One probe for the suite: its cases read only their own threads' records.
  static void SetUpTestSuite() { ProbeSession::ShareInSuite(); }
  static void TearDownTestSuite() { ProbeSession::StopSharing(); }
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }

  // Records every process's state syscalls and the opens, reads and execs;
  // seeds the table once the probe is attached.
  void Start() {
    std::vector<uint32_t> syscalls = engine::StateSyscalls();
    for (uint32_t s : {SYS_open, SYS_openat, SYS_openat2, SYS_creat, SYS_read, SYS_execve}) {
      syscalls.push_back(s);
    }
    session_ = ProbeSession::Start({.buffer_bytes = 16 << 20,
                                    .syscalls = std::move(syscalls),
                                    .trace_only_this_process = false});
    ASSERT_NE(session_, nullptr);
    threads_.SeedFromProc();
  }

  // Applies every record now in the rings; returns those of the threads
  // `tids` of the types asked for, in order, each with `fields` as text.
  std::vector<Seen> Apply(const std::vector<uint32_t>& tids, const std::vector<uint16_t>& types,
                          const std::vector<std::string>& fields) {
    const std::vector<engine::filter::FieldSpec> specs = testing::ResolveFields(registry_, fields);
    std::vector<Seen> out;
    testing::ForEachAppliedEvent(
        session_->DrainRaw(), threads_,
        [&](const kestrel_record_header& h) {
          return std::find(tids.begin(), tids.end(), h.tid) != tids.end() &&
                 std::find(types.begin(), types.end(), h.type) != types.end();
        },
        [&](const engine::DecodedEvent& event, uint64_t num, std::vector<uint8_t>& bytes) {
          Seen seen;
          seen.tid = event.record().header().tid;
          seen.type = event.record().header().type;
          extractor_.SetEvent(
              engine::fields::MakeEventContext(event, threads_, num, boot_time_ns_));
          for (size_t i = 0; i < fields.size(); ++i) {
            std::string text;
            seen.fields[fields[i]] = extractor_.ReadText(specs[i], text) ? text : "<none>";
          }
          seen.bytes = std::move(bytes);
          out.push_back(std::move(seen));
        });
    return out;
  }

  const uint64_t boot_time_ns_ = Nanos(CLOCK_REALTIME) - Nanos(CLOCK_BOOTTIME);
  std::unique_ptr<ProbeSession> session_;
  engine::ThreadTable threads_{{.boot_time_ns = boot_time_ns_}};
  engine::state::UserDirectory users_;
  engine::fields::FieldRegistry registry_;
  engine::fields::FieldExtractor extractor_{registry_, &users_};
  TempDir dir_;
};

// Each open family call, once creating its file and once finding it there.
TEST_F(OpenExecFactsTest, OpensSayWhetherTheyCreatedTheFile) {
  const std::string a = dir_.path() + "/a", b = dir_.path() + "/b", c = dir_.path() + "/c",
                    d = dir_.path() + "/d";
  ASSERT_NO_FATAL_FAILURE(Start());
  std::vector<int> fds;
  for (int round = 0; round < 2; ++round) {
    fds.push_back(openat(AT_FDCWD, a.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    fds.push_back(static_cast<int>(syscall(SYS_open, b.c_str(), O_CREAT | O_RDWR, 0600)));
    fds.push_back(static_cast<int>(syscall(SYS_creat, c.c_str(), 0600)));
    open_how how{.flags = O_CREAT | O_WRONLY, .mode = 0600, .resolve = 0};
    fds.push_back(static_cast<int>(syscall(SYS_openat2, AT_FDCWD, d.c_str(), &how, sizeof how)));
  }
  // An existing file without O_CREAT, and a failed O_CREAT.
  fds.push_back(openat(AT_FDCWD, a.c_str(), O_RDONLY | O_CLOEXEC));
  const std::string orphan = dir_.path() + "/none/e";
  ASSERT_EQ(openat(AT_FDCWD, orphan.c_str(), O_CREAT | O_WRONLY, 0600), -1);
  for (int fd : fds) {
    EXPECT_GE(fd, 0);
    close(fd);
  }

  // The seed's reads of /proc are this thread's opens too: only the test's.
  std::vector<Seen> got;
  for (Seen& seen :
       Apply({CurrentTid()},
             {KESTREL_EVT_OPENAT, KESTREL_EVT_OPEN, KESTREL_EVT_CREAT, KESTREL_EVT_OPENAT2},
             {"evt.type", "evt.is_open_create", "fd.is_upper_layer", "fd.is_lower_layer"})) {
    if (seen.Event().String("name").value_or("").starts_with(dir_.path())) {
      got.push_back(std::move(seen));
    }
  }
  ASSERT_EQ(got.size(), 10u);
  const char* const types[] = {"openat", "open", "creat", "openat2"};
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(i);
    const bool created = i < 4;
    if (i < 8) {
      EXPECT_EQ(got[i].fields.at("evt.type"), types[i % 4]);
    }
    EXPECT_EQ(got[i].Event().Int("open_facts"), created ? KESTREL_OPEN_F_CREATED : 0);
    // creat's record says it created the file; the field is Falco's, for
    // opens only.
    const bool creat = i < 8 && i % 4 == 2;
    EXPECT_EQ(got[i].fields.at("evt.is_open_create"), created && !creat ? "true" : "false");
    if (i < 9) {
      EXPECT_EQ(got[i].fields.at("fd.is_upper_layer"), "false");
      EXPECT_EQ(got[i].fields.at("fd.is_lower_layer"), "false");
    }
  }
  EXPECT_EQ(got[9].Event().Int("fd"), -ENOENT);
  EXPECT_EQ(engine::FormatFlags(KFS_OPEN_FACTS, 0), "0");
  EXPECT_EQ(engine::FormatFlags(KFS_OPEN_FACTS, *got[0].Event().Int("open_facts")), "O_F_CREATED");
  EXPECT_EQ(got[2].Event().Int("creat_flags"), 0);
}

// Writes `text` to `path` with `mode`.
void WriteFile(const std::string& path, const std::string& text, mode_t mode = 0644) {
  std::ofstream(path) << text;
  chmod(path.c_str(), mode);
}

// In a private mount namespace: mounts an overlay of `base`/lower, opens a
// lower-layer file and reads it, creates a file, opens another lower file
// for writing (a copy-up), then execs the overlay's copy of `true` (still
// on the lower layer). Returns the failed step; the exec'd `true` exits 0.
// The mount goes with the namespace, when the process exits.
int OnAnOverlay(const std::string& base) {
  if (unshare(CLONE_NEWNS) != 0) return 2;
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 3;
  const std::string merged = base + "/merged";
  const std::string options =
      "lowerdir=" + base + "/lower,upperdir=" + base + "/upper,workdir=" + base + "/work";
  if (mount("overlay", merged.c_str(), "overlay", 0, options.c_str()) != 0) return 4;
  const int low = openat(AT_FDCWD, (merged + "/low").c_str(), O_RDONLY);
  char byte;
  if (low < 0 || read(low, &byte, 1) != 1) return 5;
  const int created = openat(AT_FDCWD, (merged + "/new").c_str(), O_CREAT | O_WRONLY, 0600);
  if (created < 0) return 6;
  const int copied_up = openat(AT_FDCWD, (merged + "/low2").c_str(), O_WRONLY);
  if (copied_up < 0) return 7;
  const std::string exe = merged + "/true";
  char* const argv[] = {const_cast<char*>("true"), nullptr};
  char* const envp[] = {nullptr};
  execve(exe.c_str(), argv, envp);
  return 8;
}

TEST_F(OpenExecFactsTest, OverlayLayersOfOpenedFilesAndOfTheExecutable) {
  const std::string base = dir_.path();
  for (const char* d : {"/lower", "/upper", "/work", "/merged"}) {
    ASSERT_EQ(mkdir((base + d).c_str(), 0700), 0);
  }
  WriteFile(base + "/lower/low", "x");
  WriteFile(base + "/lower/low2", "y");
  std::filesystem::copy_file("/bin/true", base + "/lower/true");
  ASSERT_EQ(chmod((base + "/lower/true").c_str(), 0755), 0);
  ASSERT_NO_FATAL_FAILURE(Start());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(OnAnOverlay(base));
  ASSERT_EQ(Reap(child), 0);

  const std::vector<Seen> got = Apply(
      {static_cast<uint32_t>(child)}, {KESTREL_EVT_OPENAT, KESTREL_EVT_READ, KESTREL_EVT_EXECVE},
      {"evt.type", "fd.name", "evt.is_open_create", "fd.is_upper_layer", "fd.is_lower_layer",
       "proc.is_exe_upper_layer", "proc.is_exe_lower_layer"});
  // The child's own calls come first; the exec'd `true` opens its libraries
  // after them.
  ASSERT_GE(got.size(), 5u);
  const std::string merged = base + "/merged";
  const engine::DecodedEvent low = got[0].Event();
  EXPECT_EQ(low.String("path"), merged + "/low");
  EXPECT_EQ(low.Int("open_facts"), KESTREL_OPEN_F_LOWER_LAYER);
  EXPECT_EQ(engine::FormatFlags(KFS_OPEN_FACTS, *low.Int("open_facts")), "FD_LOWER_LAYER");
  EXPECT_EQ(got[0].fields.at("fd.is_lower_layer"), "true");
  EXPECT_EQ(got[0].fields.at("fd.is_upper_layer"), "false");
  EXPECT_EQ(got[0].fields.at("evt.is_open_create"), "false");
  // A later event on the descriptor: the layer is the fd table's.
  EXPECT_EQ(got[1].fields.at("evt.type"), "read");
  EXPECT_EQ(got[1].fields.at("fd.name"), merged + "/low");
  EXPECT_EQ(got[1].fields.at("fd.is_lower_layer"), "true");
  EXPECT_EQ(got[1].fields.at("fd.is_upper_layer"), "false");

  const engine::DecodedEvent created = got[2].Event();
  EXPECT_EQ(created.String("path"), merged + "/new");
  EXPECT_EQ(created.Int("open_facts"), KESTREL_OPEN_F_CREATED | KESTREL_OPEN_F_UPPER_LAYER);
  EXPECT_EQ(got[2].fields.at("evt.is_open_create"), "true");
  EXPECT_EQ(got[2].fields.at("fd.is_upper_layer"), "true");
  EXPECT_EQ(got[2].fields.at("fd.is_lower_layer"), "false");

  // Opened for writing, a lower file is copied up first.
  const engine::DecodedEvent copied = got[3].Event();
  EXPECT_EQ(copied.String("path"), merged + "/low2");
  EXPECT_EQ(copied.Int("open_facts"), KESTREL_OPEN_F_UPPER_LAYER);
  EXPECT_EQ(got[3].fields.at("fd.is_upper_layer"), "true");
  EXPECT_EQ(got[3].fields.at("evt.is_open_create"), "false");

  ASSERT_EQ(got[4].type, KESTREL_EVT_EXECVE);
  const engine::DecodedEvent exec = got[4].Event();
  EXPECT_EQ(exec.Int("res"), 0);
  EXPECT_EQ(exec.String("trusted_exepath"), merged + "/true");
  EXPECT_EQ(exec.Int("exe_lower_layer"), 1);
  EXPECT_EQ(exec.Int("exe_upper_layer"), 0);
  EXPECT_EQ(exec.Int("flags").value_or(0) & (1 << 3), 1 << 3);  // EXE_LOWER_LAYER
  EXPECT_EQ(got[4].fields.at("proc.is_exe_lower_layer"), "true");
  EXPECT_EQ(got[4].fields.at("proc.is_exe_upper_layer"), "false");
}

// An exec in the host's pid namespace and one in a namespace of its own (its
// init execs): the record carries the init's CLOCK_MONOTONIC start, the
// table the namespace's start as an epoch time (boot time on the host).
TEST_F(OpenExecFactsTest, ExecCarriesItsPidNamespaceInitStart) {
  const std::string exe = dir_.path() + "/true";
  std::filesystem::copy_file("/bin/true", exe);  // ctime: now, after boot
  ASSERT_EQ(chmod(exe.c_str(), 0755), 0);
  ASSERT_NO_FATAL_FAILURE(Start());
  char* const argv[] = {const_cast<char*>("true"), nullptr};
  char* const envp[] = {nullptr};
  const pid_t host_child = fork();
  ASSERT_GE(host_child, 0);
  if (host_child == 0) {
    execve(exe.c_str(), argv, envp);
    _exit(8);
  }
  ASSERT_EQ(Reap(host_child), 0);
  const uint64_t before_ns = Nanos(CLOCK_MONOTONIC);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t middle = fork();
  ASSERT_GE(middle, 0);
  if (middle == 0) {
    if (unshare(CLONE_NEWPID) != 0) _exit(2);
    const pid_t init = fork();  // pid 1 of the new namespace
    if (init == 0) {
      execve(exe.c_str(), argv, envp);
      _exit(8);
    }
    if (write(pipe_fds[1], &init, sizeof init) != sizeof init) _exit(3);
    _exit(Reap(init));
  }
  close(pipe_fds[1]);
  pid_t init = -1;
  ASSERT_EQ(read(pipe_fds[0], &init, sizeof init), static_cast<ssize_t>(sizeof init));
  close(pipe_fds[0]);
  ASSERT_EQ(Reap(middle), 0);
  const uint64_t after_ns = Nanos(CLOCK_MONOTONIC);
  struct stat st {};
  ASSERT_EQ(stat(exe.c_str(), &st), 0);
  const uint64_t ctime_ns = static_cast<uint64_t>(st.st_ctim.tv_sec) * 1'000'000'000 +
                            static_cast<uint64_t>(st.st_ctim.tv_nsec);

  const std::vector<std::string> fields = {
      "proc.pidns_init_start_ts", "proc.exe_ino.ctime_duration_pidns_start", "proc.exe_ino.ctime"};
  const std::vector<Seen> got =
      Apply({static_cast<uint32_t>(host_child), static_cast<uint32_t>(init)}, {KESTREL_EVT_EXECVE},
            fields);
  ASSERT_EQ(got.size(), 2u);
  const Seen& on_host = got[0].tid == static_cast<uint32_t>(host_child) ? got[0] : got[1];
  const Seen& in_ns = got[0].tid == static_cast<uint32_t>(host_child) ? got[1] : got[0];
  ASSERT_EQ(on_host.tid, static_cast<uint32_t>(host_child));
  ASSERT_EQ(in_ns.tid, static_cast<uint32_t>(init));

  // The host's init started at boot.
  const int64_t tick_ns = 1'000'000'000 / sysconf(_SC_CLK_TCK);
  const std::optional<int64_t> host_start = on_host.Event().Int("pidns_init_start_ts");
  ASSERT_TRUE(host_start.has_value());
  EXPECT_NEAR(*host_start / tick_ns, InitStartTicks(), 1);
  EXPECT_EQ(on_host.fields.at("proc.pidns_init_start_ts"), std::to_string(boot_time_ns_));
  EXPECT_EQ(on_host.fields.at("proc.exe_ino.ctime"), std::to_string(ctime_ns));
  EXPECT_EQ(on_host.fields.at("proc.exe_ino.ctime_duration_pidns_start"),
            std::to_string(ctime_ns - boot_time_ns_));

  // The new namespace's init is the exec'ing process, forked between
  // before_ns and after_ns; the executable is older than it.
  const std::optional<int64_t> ns_start = in_ns.Event().Int("pidns_init_start_ts");
  ASSERT_TRUE(ns_start.has_value());
  EXPECT_GE(static_cast<uint64_t>(*ns_start), before_ns);
  EXPECT_LE(static_cast<uint64_t>(*ns_start), after_ns);
  EXPECT_EQ(in_ns.fields.at("proc.pidns_init_start_ts"),
            std::to_string(static_cast<uint64_t>(*ns_start) + boot_time_ns_));
  EXPECT_EQ(in_ns.fields.at("proc.exe_ino.ctime_duration_pidns_start"), "<none>");
}

}  // namespace
}  // namespace kestrel::testing
