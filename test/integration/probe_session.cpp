#include "probe_session.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "engine/record_view.h"

namespace kestrel::testing {
namespace {

void LogToStderr(void*, pman_log_level level, const char* message) {
  if (level >= PMAN_LOG_WARNING) std::fprintf(stderr, "pman: %s\n", message);
}

}  // namespace

bool HasBpfPrivileges() {
  if (geteuid() == 0) return true;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  auto has = [&](int cap) { return (data[cap / 32].effective >> (cap % 32)) & 1U; };
  return has(CAP_SYS_ADMIN) || (has(CAP_BPF) && has(CAP_PERFMON));
}

uint32_t CurrentTid() { return static_cast<uint32_t>(gettid()); }

std::unique_ptr<ProbeSession> ProbeSession::Start(const SessionOptions& options) {
  pman_options opts;
  pman_default_options(&opts);
  opts.buffer_bytes = options.buffer_bytes;
  opts.cpus_per_buffer = options.cpus_per_buffer;
  opts.log_fn = LogToStderr;
  pman_handle* h = nullptr;
  EXPECT_EQ(pman_init(&opts, &h), 0);
  if (h == nullptr) return nullptr;
  std::unique_ptr<ProbeSession> session(new ProbeSession(h));
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
  return session;
}

ProbeSession::~ProbeSession() { pman_close(handle_); }

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

pman_stats ProbeSession::Stats() {
  pman_stats stats{};
  EXPECT_EQ(pman_get_stats(handle_, &stats, nullptr, 0), 0);
  return stats;
}

}  // namespace kestrel::testing
