// Loading, attaching, detaching and closing: nothing may outlive the handle,
// handles are independent, and misuse is refused with an errno and a message.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "engine/decode/generic_syscall.h"
#include "engine/decode/record_view.h"
#include "probe_session.h"
#include "shared/event_types.h"

namespace kestrel::testing {
namespace {

// Ids of loaded BPF programs whose name starts like the probe's.
std::set<uint32_t> KestrelProgramIds() {
  std::set<uint32_t> ids;
  uint32_t id = 0;
  while (bpf_prog_get_next_id(id, &id) == 0) {
    const int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0) continue;
    bpf_prog_info info{};
    uint32_t len = sizeof(info);
    if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 &&
        std::string(info.name).starts_with("kestrel_")) {
      ids.insert(id);
    }
    close(fd);
  }
  return ids;
}

// Program ids are released after an RCU grace period, so poll briefly.
bool AllGone(const std::set<uint32_t>& ids) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::set<uint32_t> now = KestrelProgramIds();
    bool any = false;
    for (uint32_t id : ids) any = any || now.count(id);
    if (!any) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(LifecycleTest, CloseLeavesNoProgramBehind) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  const std::set<uint32_t> before = KestrelProgramIds();
  std::set<uint32_t> ours;
  {
    auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
    ASSERT_NE(session, nullptr);
    for (uint32_t id : KestrelProgramIds()) {
      if (!before.count(id)) ours.insert(id);
    }
    ASSERT_FALSE(ours.empty());
  }
  EXPECT_TRUE(AllGone(ours));
}

TEST(LifecycleTest, DetachStopsEventsAndAttachResumes) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {SYS_getppid}});
  ASSERT_NE(session, nullptr);
  syscall(SYS_getppid, 1);
  ASSERT_EQ(pman_detach(session->handle()), 0);
  syscall(SYS_getppid, 2);
  ASSERT_EQ(pman_attach(session->handle()), 0);
  syscall(SYS_getppid, 3);
  std::vector<uint64_t> tags;
  for (const Captured& c : session->DrainThread(CurrentTid())) tags.push_back(c.call.args[0]);
  EXPECT_EQ(tags, (std::vector<uint64_t>{1, 3}));
}

TEST(LifecycleTest, TwoHandlesCaptureSideBySide) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto first = ProbeSession::Start({.syscalls = {SYS_getppid}});
  auto second = ProbeSession::Start({.syscalls = {SYS_getppid, SYS_fadvise64}});
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  syscall(SYS_getppid, 9);
  syscall(SYS_fadvise64, -1L, 0L, 0L, 0L);
  const std::vector<Captured> a = first->DrainThread(CurrentTid());
  const std::vector<Captured> b = second->DrainThread(CurrentTid());
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(a[0].call.args[0], 9u);
  EXPECT_EQ(b[0].call.args[0], 9u);
  EXPECT_EQ(b[1].call.id, static_cast<uint32_t>(SYS_fadvise64));
}

TEST(LifecycleTest, LoadExcludesTheCallerByDefault) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  pman_options opts;
  pman_default_options(&opts);
  pman_handle* h = nullptr;
  ASSERT_EQ(pman_init(&opts, &h), 0);
  ASSERT_EQ(pman_open(h), 0);
  ASSERT_EQ(pman_load(h), 0);
  kestrel_capture_settings s{};
  ASSERT_EQ(pman_get_capture_settings(h, &s), 0);
  EXPECT_EQ(s.own_tgid, static_cast<uint32_t>(getpid()));
  EXPECT_EQ(s.snaplen, 80u);
  EXPECT_GT(s.boot_time_ns, 1'600'000'000'000'000'000ULL);  // after 2020
  ASSERT_EQ(pman_mark_single_64bit_syscall(h, SYS_getppid, true), 0);
  ASSERT_EQ(pman_attach(h), 0);
  // Our call first, then a child's as the positive control: the child's
  // record arriving proves the probe captured, and ours, older, would have
  // come out before it.
  constexpr uint64_t kOwnTag = 0x6b6f776e, kChildTag = 0x6b636864;
  syscall(SYS_getppid, kOwnTag);
  const pid_t child = fork();
  if (child == 0) {
    syscall(SYS_getppid, kChildTag);
    _exit(0);
  }
  ASSERT_GT(child, 0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  bool child_seen = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!child_seen && std::chrono::steady_clock::now() < deadline) {
    void* record = nullptr;
    int16_t ring = -1;
    ASSERT_EQ(pman_consume_first_event(h, &record, &ring), 0);
    if (record == nullptr) {
      pman_wait_for_events(h, 10);
      continue;
    }
    absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(
        static_cast<const kestrel_record_header*>(record), KESTREL_MAX_RECORD_BYTES);
    ASSERT_TRUE(view.ok()) << view.status();
    EXPECT_NE(view->header().tgid, static_cast<uint32_t>(getpid()));
    if (view->header().type != KESTREL_EVT_GENERIC_SYSCALL) continue;
    absl::StatusOr<engine::GenericSyscall> call = engine::DecodeGenericSyscall(*view);
    ASSERT_TRUE(call.ok()) << call.status();
    EXPECT_NE(call->args[0], kOwnTag) << "the caller's own syscall was captured";
    child_seen |= call->args[0] == kChildTag && view->header().tgid == static_cast<uint32_t>(child);
  }
  EXPECT_TRUE(child_seen) << "the probe captured nothing: the exclusion proves nothing";
  pman_close(h);
}

struct LogCapture {
  std::string last;
  static void Fn(void* ctx, pman_log_level, const char* message) {
    static_cast<LogCapture*>(ctx)->last = message;
  }
};

TEST(LifecycleTest, MisuseIsRefusedWithErrnoAndMessage) {
  LogCapture log;
  pman_options opts;
  pman_default_options(&opts);
  opts.log_fn = LogCapture::Fn;
  opts.log_ctx = &log;

  pman_options bad = opts;
  bad.buffer_bytes = 3 * 4096;
  pman_handle* h = nullptr;
  EXPECT_EQ(pman_init(&bad, &h), -EINVAL);
  EXPECT_EQ(h, nullptr);
  EXPECT_NE(log.last.find("power of two"), std::string::npos) << log.last;

  ASSERT_EQ(pman_init(&opts, &h), 0);
  void* record = nullptr;
  int16_t ring = -1;
  EXPECT_EQ(pman_consume_first_event(h, &record, &ring), -EBADFD);
  EXPECT_NE(log.last.find("before pman_load"), std::string::npos) << log.last;
  EXPECT_EQ(pman_attach(h), -EBADFD);
  EXPECT_EQ(pman_load(h), -EBADFD);  // not opened
  EXPECT_EQ(pman_consume_first_event(nullptr, &record, &ring), -EINVAL);
  pman_close(h);
}

TEST(LifecycleTest, OutOfRangeSyscallsAreRejected) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  auto session = ProbeSession::Start({.syscalls = {}});
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(pman_mark_single_64bit_syscall(session->handle(), pman_syscall_table_size(), true),
            -EINVAL);
  std::vector<uint8_t> too_big(pman_syscall_table_size() + 1, 1);
  EXPECT_EQ(pman_enforce_sc_set(session->handle(), too_big.data(), too_big.size()), -EINVAL);
}

}  // namespace
}  // namespace kestrel::testing
