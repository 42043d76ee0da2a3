#include "probe_session.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "engine/decode/record_view.h"
#include "kestrel/common/stderr_log.h"
#include "shared/event_types.h"

namespace kestrel::testing {
namespace {}  // namespace

bool HasBpfPrivileges() {
  if (geteuid() == 0) return true;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  auto has = [&](int cap) { return (data[cap / 32].effective >> (cap % 32)) & 1U; };
  return has(CAP_SYS_ADMIN) || (has(CAP_BPF) && has(CAP_PERFMON));
}

uint32_t CurrentTid() { return static_cast<uint32_t>(gettid()); }

kestrel_capture_settings CurrentSettings(pman_handle* h) {
  kestrel_capture_settings s{};
  EXPECT_EQ(pman_get_capture_settings(h, &s), 0);
  return s;
}

void SetDataCapture(pman_handle* h, const DataCapture& data) {
  kestrel_capture_settings s = CurrentSettings(h);
  s.capture_io_data = data.io_data ? 1 : 0;
  if (data.snaplen != 0) s.snaplen = data.snaplen;
  s.fullcapture_port_lo = data.fullcapture_port_lo;
  s.fullcapture_port_hi = data.fullcapture_port_hi;
  EXPECT_EQ(pman_update_capture_settings(h, &s), 0);
}

uint64_t SettingsGeneration(pman_handle* h) {
  uint64_t g = 0;
  EXPECT_EQ(pman_get_settings_generation(h, &g), 0);
  return g;
}

long TaggedGetppid(uint64_t tag) { return syscall(SYS_getppid, tag, tag + 1, 0, 0, 0, 0); }

ScopedCpuPin::ScopedCpuPin(int cpu) {
  sched_getaffinity(0, sizeof(old_), &old_);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  EXPECT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
}

ScopedCpuPin::~ScopedCpuPin() { sched_setaffinity(0, sizeof(old_), &old_); }

namespace {

// The probe a suite shares, and what it held right after its load: what
// each case's Start() puts back.
struct SharedProbe {
  bool wanted = false;
  pman_handle* handle = nullptr;
  SessionOptions load_options;
  kestrel_capture_settings settings{};
  std::vector<uint8_t> interesting;
  std::vector<uint8_t> drop_classes;
};

SharedProbe& Shared() {
  static SharedProbe shared;
  return shared;
}

// Options fixed at load; the rest are settings a loaded probe can change.
bool SameLoad(const SessionOptions& a, const SessionOptions& b) {
  return a.buffer_bytes == b.buffer_bytes && a.cpus_per_buffer == b.cpus_per_buffer &&
         a.settings_storage == b.settings_storage && a.flags == b.flags;
}

}  // namespace

// KESTREL_TEST_PROBE_PER_CASE=1 loads a probe per case as before sharing:
// it tells a case that fails only on a shared probe from a real failure.
void ProbeSession::ShareInSuite() {
  const char* per_case = std::getenv("KESTREL_TEST_PROBE_PER_CASE");
  Shared().wanted = per_case == nullptr || std::string_view(per_case) != "1";
}

void ProbeSession::StopSharing() {
  SharedProbe& shared = Shared();
  pman_close(shared.handle);
  shared = SharedProbe{};
}

std::unique_ptr<ProbeSession> ProbeSession::Start(const SessionOptions& options) {
  SharedProbe& shared = Shared();
  if (!shared.wanted) return Load(options);
  if (shared.handle != nullptr) return Reuse(options);

  std::unique_ptr<ProbeSession> loaded = Load(options);
  if (loaded == nullptr) return nullptr;
  // The suite keeps the handle; the cases get sessions that do not close it.
  shared.handle = loaded->handle_;
  loaded->owned_ = false;
  shared.load_options = options;
  EXPECT_EQ(pman_get_capture_settings(shared.handle, &shared.settings), 0);
  const uint32_t n = pman_syscall_table_size();
  shared.interesting.assign(n, 0);
  shared.drop_classes.assign(n, 0);
  EXPECT_EQ(pman_get_syscall_tables(shared.handle, shared.interesting.data(),
                                    shared.drop_classes.data(), n),
            0);
  for (uint32_t id : options.syscalls) shared.interesting[id] = 0;  // what Load() marked
  return loaded;
}

std::unique_ptr<ProbeSession> ProbeSession::Reuse(const SessionOptions& options) {
  SharedProbe& shared = Shared();
  if (!SameLoad(options, shared.load_options)) {
    ADD_FAILURE() << "this suite shares one probe, but a case asks for other load options";
    return nullptr;
  }
  pman_handle* h = shared.handle;
  kestrel_capture_settings settings = shared.settings;
  settings.target_tgid = options.trace_only_this_process ? static_cast<uint32_t>(getpid()) : 0;
  EXPECT_EQ(pman_update_capture_settings(h, &settings), 0);
  std::vector<uint8_t> interesting = shared.interesting;
  for (uint32_t id : options.syscalls) interesting[id] = 1;
  EXPECT_EQ(pman_enforce_sc_set(h, interesting.data(), interesting.size()), 0);
  std::vector<uint8_t> drop_classes(shared.drop_classes.size());
  EXPECT_EQ(pman_get_syscall_tables(h, nullptr, drop_classes.data(), drop_classes.size()), 0);
  for (uint32_t id = 0; id < drop_classes.size(); ++id) {
    if (drop_classes[id] != shared.drop_classes[id]) {
      EXPECT_EQ(pman_set_syscall_drop_class(h, id, shared.drop_classes[id]), 0);
    }
  }
  EXPECT_EQ(pman_set_omitted_params(h, 0), 0);
  std::unique_ptr<ProbeSession> session(new ProbeSession(h, /*owned=*/false));
  EXPECT_FALSE(session->AwaitSettingsChanged().empty()) << "no settings_changed after the reset";
  // The reset made no syscall, so the wait inside AwaitSettingsChanged was
  // the first the probe saw, and it may be one the case captures: a fresh
  // load's own syscalls came before its settings_changed record instead.
  session->DrainAll();
  return session;
}

std::unique_ptr<ProbeSession> ProbeSession::Load(const SessionOptions& options) {
  pman_options opts;
  pman_default_options(&opts);
  opts.buffer_bytes = options.buffer_bytes;
  opts.cpus_per_buffer = options.cpus_per_buffer;
  opts.settings_storage = options.settings_storage;
  opts.flags = options.flags;
  opts.log_fn = cli::LogToStderr;
  opts.log_ctx = cli::CommandLogContext("pman");
  pman_handle* h = nullptr;
  EXPECT_EQ(pman_init(&opts, &h), 0);
  if (h == nullptr) return nullptr;
  std::unique_ptr<ProbeSession> session(new ProbeSession(h, /*owned=*/true));
  EXPECT_EQ(pman_open(h), 0);
  const int load = pman_load(h);
  EXPECT_EQ(load, 0) << "pman_load: " << load;
  if (load != 0) return nullptr;

  kestrel_capture_settings settings{};
  EXPECT_EQ(pman_get_capture_settings(h, &settings), 0);
  // Tests trace themselves, so the default self-exclusion is lifted.
  settings.own_tgid = 0;
  settings.target_tgid = options.trace_only_this_process ? static_cast<uint32_t>(getpid()) : 0;
  EXPECT_EQ(pman_update_capture_settings(h, &settings), 0);
  for (uint32_t id : options.syscalls) EXPECT_EQ(pman_mark_single_64bit_syscall(h, id, true), 0);
  EXPECT_EQ(pman_attach(h), 0);
  EXPECT_FALSE(session->AwaitSettingsChanged().empty()) << "no settings_changed after setup";
  return session;
}

ProbeSession::~ProbeSession() {
  if (owned_) pman_close(handle_);
}

std::vector<Captured> ProbeSession::DrainThread(uint32_t tid) {
  std::vector<Captured> out;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(handle_, &record, &ring), 0);
    if (record == nullptr) break;
    absl::StatusOr<engine::RecordView> view =
        engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES);
    EXPECT_TRUE(view.ok()) << view.status();
    if (!view.ok() || view->header().tid != tid) continue;
    absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
    EXPECT_TRUE(call.ok()) << call.status();
    if (call.ok()) out.push_back({view->header(), *call});
  }
  return out;
}

engine::DecodedEvent OwnedRecord::Event() const {
  absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(bytes_.data(), bytes_.size());
  EXPECT_TRUE(view.ok()) << view.status();
  absl::StatusOr<engine::DecodedEvent> event = engine::DecodedEvent::Decode(*view);
  EXPECT_TRUE(event.ok()) << event.status();
  if (!event.ok()) std::abort();  // a test cannot go on with an undecodable record
  return *std::move(event);
}

std::vector<OwnedRecord> ProbeSession::DrainRecords(uint32_t tid) {
  std::vector<OwnedRecord> out;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(handle_, &record, &ring), 0);
    if (record == nullptr) break;
    const auto* h = static_cast<const kestrel_record_header*>(record);
    if (h->tid == tid) out.emplace_back(h);
  }
  return out;
}

uint64_t ProbeSession::DrainAll() {
  uint64_t n = 0;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(handle_, &record, &ring), 0);
    if (record == nullptr) return n;
    ++n;
  }
}

std::vector<engine::SettingsChanged> ProbeSession::AwaitSettingsChanged() {
  std::vector<engine::SettingsChanged> seen;
  uint64_t generation = 0;
  EXPECT_EQ(pman_get_settings_generation(handle_, &generation), 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(handle_, &record, &ring), 0);
    if (record == nullptr) {
      // The wait is itself a syscall: it makes the probe look.
      pman_wait_for_events(handle_, 10);
      continue;
    }
    absl::StatusOr<engine::RecordView> view =
        engine::RecordView::Parse(record, KESTREL_MAX_RECORD_BYTES);
    if (!view.ok() || view->header().type != KESTREL_EVT_SETTINGS_CHANGED) continue;
    absl::StatusOr<engine::SettingsChanged> changed = engine::DecodeSettingsChanged(*view);
    EXPECT_TRUE(changed.ok()) << changed.status();
    if (!changed.ok()) continue;
    seen.push_back(*changed);
    if (changed->new_generation == generation) return seen;
  }
  return {};
}

std::vector<std::vector<uint8_t>> ProbeSession::DrainRaw() {
  std::vector<std::vector<uint8_t>> out;
  for (;;) {
    void* record = nullptr;
    int16_t ring = -1;
    EXPECT_EQ(pman_consume_first_event(handle_, &record, &ring), 0);
    if (record == nullptr) return out;
    const auto* bytes = static_cast<const uint8_t*>(record);
    out.emplace_back(bytes, bytes + static_cast<const kestrel_record_header*>(record)->len);
  }
}

pman_stats ProbeSession::Stats() {
  pman_stats stats{};
  EXPECT_EQ(pman_get_stats(handle_, &stats, nullptr, 0), 0);
  return stats;
}

}  // namespace kestrel::testing
