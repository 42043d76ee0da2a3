// Kernel-surface events: each syscall made with known, harmless arguments,
// success and failure where a success is harmless, every decoded parameter
// checked. No module is ever loaded: module calls are made to fail.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "engine/output/param_format.h"
#include "event_test_fixture.h"
#include "probe_session.h"
#include "shared/event_types.h"

namespace kestrel::testing {
namespace {

long Syscall(long nr, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0) {
  const long r = syscall(nr, a, b, c, d, e);
  return r < 0 ? -errno : r;
}

using KernelEventsTest = EventTest;

TEST_F(KernelEventsTest, InitModuleOfGarbageFails) {
  auto session = Start({SYS_init_module});
  ASSERT_NE(session, nullptr);
  char image[64] = {};  // not an ELF: the kernel refuses it
  const long res = Syscall(SYS_init_module, reinterpret_cast<long>(image), sizeof(image),
                           reinterpret_cast<long>("debug=1"));
  ASSERT_LT(res, 0);
  const long fault = Syscall(SYS_init_module, 0, 16, 0);
  ASSERT_LT(fault, 0);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_INIT_MODULE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), res);
  EXPECT_EQ(got[0].Event().Int("length"), 64);
  EXPECT_EQ(got[0].Event().String("uargs"), "debug=1");
  const std::span<const uint8_t> img = got[0].Event().Raw("img");
  EXPECT_EQ(std::vector<uint8_t>(img.begin(), img.end()), std::vector<uint8_t>(sizeof(image), 0));
  EXPECT_EQ(got[1].Event().Int("res"), fault);
  EXPECT_EQ(got[1].Event().Int("length"), 16);
  EXPECT_EQ(got[1].Event().Raw("img").size(), 0u);  // a NULL image
  EXPECT_EQ(got[1].Event().Raw("uargs").size(), 0u);
}

TEST_F(KernelEventsTest, FinitModuleReportsTheFilesPath) {
  const std::string path = dir_.Touch("not-a-module.ko");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  auto session = Start({SYS_finit_module});
  ASSERT_NE(session, nullptr);
  const long res = Syscall(SYS_finit_module, fd, reinterpret_cast<long>("a=b"), 0);
  ASSERT_LT(res, 0);
  const long no_fd = Syscall(SYS_finit_module, -1, reinterpret_cast<long>(""), 0);
  ASSERT_LT(no_fd, 0);  // EBADF, or ENOSYS on a kernel without modules

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_FINIT_MODULE);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent e = got[0].Event();
  EXPECT_EQ(e.Int("res"), res);
  EXPECT_EQ(e.Int("fd"), fd);
  EXPECT_EQ(e.String("uargs"), "a=b");
  EXPECT_EQ(e.Int("flags"), 0);
  EXPECT_EQ(e.String("path"), path);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), no_fd);
  EXPECT_EQ(bad.Int("fd"), -1);
  EXPECT_EQ(bad.String("uargs"), "");
  EXPECT_EQ(bad.Raw("path").size(), 0u);
  close(fd);
}

TEST_F(KernelEventsTest, DeleteModuleOfAModuleThatDoesNotExist) {
  auto session = Start({SYS_delete_module});
  ASSERT_NE(session, nullptr);
  // ENOENT and EFAULT, or ENOSYS twice on a kernel without modules.
  const long missing =
      Syscall(SYS_delete_module, reinterpret_cast<long>("kestrel_no_such_module"), O_NONBLOCK);
  ASSERT_LT(missing, 0);
  const long fault = Syscall(SYS_delete_module, 0, 0);
  ASSERT_LT(fault, 0);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_DELETE_MODULE);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), missing);
  EXPECT_EQ(got[0].Event().String("name"), "kestrel_no_such_module");
  EXPECT_EQ(got[0].Event().Int("flags"), O_NONBLOCK);
  EXPECT_EQ(got[1].Event().Int("res"), fault);
  EXPECT_EQ(got[1].Event().Raw("name").size(), 0u);
  EXPECT_EQ(got[1].Event().Int("flags"), 0);
}

TEST_F(KernelEventsTest, BpfMapCreateAndAnInvalidCommand) {
  auto session = Start({SYS_bpf});
  ASSERT_NE(session, nullptr);
  bpf_attr attr{};
  attr.map_type = BPF_MAP_TYPE_ARRAY;
  attr.key_size = 4;
  attr.value_size = 4;
  attr.max_entries = 1;
  const long map = Syscall(SYS_bpf, BPF_MAP_CREATE, reinterpret_cast<long>(&attr), sizeof(attr));
  ASSERT_GE(map, 0);
  close(static_cast<int>(map));
  ASSERT_EQ(Syscall(SYS_bpf, 9999, reinterpret_cast<long>(&attr), sizeof(attr)), -EINVAL);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_BPF);
  ASSERT_EQ(got.size(), 2u);
  std::string text;
  engine::AppendParams(text, got[0].Event(), engine::OutputStyle::kText);
  EXPECT_EQ(text, "fd=" + std::to_string(map) +
                      " cmd=BPF_MAP_CREATE size=" + std::to_string(sizeof(attr)));
  EXPECT_EQ(got[1].Event().Int("fd"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("cmd"), 9999);
  EXPECT_EQ(got[1].Event().Int("size"), static_cast<int64_t>(sizeof(attr)));
}

TEST_F(KernelEventsTest, PerfEventOpen) {
  auto session = Start({SYS_perf_event_open});
  ASSERT_NE(session, nullptr);
  perf_event_attr attr{};
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.disabled = 1;
  const long fd =
      Syscall(SYS_perf_event_open, reinterpret_cast<long>(&attr), 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  ASSERT_GE(fd, 0);
  close(static_cast<int>(fd));
  attr.type = 0x7fff0000;  // no such PMU
  attr.config = 42;
  const long bad =
      Syscall(SYS_perf_event_open, reinterpret_cast<long>(&attr), 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  ASSERT_LT(bad, 0);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_PERF_EVENT_OPEN);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), fd);
  EXPECT_EQ(ok.Int("pid"), 0);
  EXPECT_EQ(ok.Int("cpu"), -1);
  EXPECT_EQ(ok.Int("group_fd"), -1);
  EXPECT_EQ(ok.Int("flags"), PERF_FLAG_FD_CLOEXEC);
  EXPECT_EQ(ok.Int("type"), PERF_TYPE_SOFTWARE);
  EXPECT_EQ(ok.Int("config"), PERF_COUNT_SW_DUMMY);
  const engine::DecodedEvent failed = got[1].Event();
  EXPECT_EQ(failed.Int("res"), bad);
  EXPECT_EQ(failed.Int("type"), 0x7fff0000);
  EXPECT_EQ(failed.Int("config"), 42);
}

TEST_F(KernelEventsTest, Userfaultfd) {
  auto session = Start({SYS_userfaultfd});
  ASSERT_NE(session, nullptr);
  const long fd = Syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  close(static_cast<int>(fd));
  ASSERT_EQ(Syscall(SYS_userfaultfd, 0x40000000), -EINVAL);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_USERFAULTFD);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].Event().Int("res"), fd);
  EXPECT_EQ(got[0].Event().Int("flags"), O_CLOEXEC | O_NONBLOCK);
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("flags"), 0x40000000);
}

TEST_F(KernelEventsTest, IoUringSetup) {
  auto session = Start({SYS_io_uring_setup});
  ASSERT_NE(session, nullptr);
  io_uring_params params{};
  params.flags = IORING_SETUP_CLAMP;
  const long fd = Syscall(SYS_io_uring_setup, 4, reinterpret_cast<long>(&params));
  ASSERT_GE(fd, 0);
  close(static_cast<int>(fd));
  io_uring_params zero{};
  zero.flags = IORING_SETUP_SQPOLL;
  zero.sq_thread_cpu = 3;
  zero.sq_thread_idle = 77;
  ASSERT_EQ(Syscall(SYS_io_uring_setup, 0, reinterpret_cast<long>(&zero)), -EINVAL);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_IO_URING_SETUP);
  ASSERT_EQ(got.size(), 2u);
  const engine::DecodedEvent ok = got[0].Event();
  EXPECT_EQ(ok.Int("res"), fd);
  EXPECT_EQ(ok.Int("entries"), 4);
  EXPECT_EQ(ok.Int("flags"), IORING_SETUP_CLAMP);
  EXPECT_EQ(ok.Int("sq_entries"), params.sq_entries);
  EXPECT_EQ(ok.Int("cq_entries"), params.cq_entries);
  EXPECT_EQ(params.sq_entries, 4u);
  EXPECT_EQ(ok.Int("sq_thread_cpu"), 0);
  EXPECT_EQ(ok.Int("sq_thread_idle"), 0);
  EXPECT_EQ(ok.Int("features"), params.features);
  EXPECT_NE(params.features, 0u);
  const engine::DecodedEvent bad = got[1].Event();
  EXPECT_EQ(bad.Int("res"), -EINVAL);
  EXPECT_EQ(bad.Int("entries"), 0);
  EXPECT_EQ(bad.Int("flags"), IORING_SETUP_SQPOLL);
  EXPECT_EQ(bad.Int("sq_entries"), 0);
  EXPECT_EQ(bad.Int("cq_entries"), 0);
  EXPECT_EQ(bad.Int("sq_thread_cpu"), 3);
  EXPECT_EQ(bad.Int("sq_thread_idle"), 77);
  EXPECT_EQ(bad.Int("features"), 0);
}

TEST_F(KernelEventsTest, Ioctl) {
  int pipe_fds[2];
  ASSERT_EQ(pipe2(pipe_fds, O_CLOEXEC), 0);
  ASSERT_EQ(write(pipe_fds[1], "abc", 3), 3);
  auto session = Start({SYS_ioctl});
  ASSERT_NE(session, nullptr);
  int pending = 0;
  ASSERT_EQ(ioctl(pipe_fds[0], FIONREAD, &pending), 0);
  EXPECT_EQ(pending, 3);
  ASSERT_EQ(ioctl(-1, TCGETS, 0), -1);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_IOCTL);
  ASSERT_EQ(got.size(), 2u);
  std::string text;
  engine::AppendParams(text, got[0].Event(), engine::OutputStyle::kText);
  EXPECT_EQ(text, "res=0 fd=" + std::to_string(pipe_fds[0]) + " request=0x541b argument=" +
                      std::to_string(reinterpret_cast<uint64_t>(&pending)));
  EXPECT_EQ(got[1].Event().Int("res"), -EBADF);
  EXPECT_EQ(got[1].Event().Int("fd"), -1);
  EXPECT_EQ(got[1].Event().Int("request"), TCGETS);
  EXPECT_EQ(got[1].Event().Int("argument"), 0);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
}

TEST_F(KernelEventsTest, SeccompQueriesOnly) {
  auto session = Start({SYS_seccomp});
  ASSERT_NE(session, nullptr);
  // Queries: neither changes this process's filter.
  uint32_t action = SECCOMP_RET_KILL_PROCESS;
  ASSERT_EQ(Syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, reinterpret_cast<long>(&action)), 0);
  seccomp_notif_sizes sizes{};
  ASSERT_EQ(Syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 1, reinterpret_cast<long>(&sizes)),
            -EINVAL);

  const std::vector<OwnedRecord> got = Drain(*session, KESTREL_EVT_SECCOMP);
  ASSERT_EQ(got.size(), 2u);
  std::string text;
  engine::AppendParams(text, got[0].Event(), engine::OutputStyle::kText);
  EXPECT_EQ(text, "res=0 op=SECCOMP_GET_ACTION_AVAIL flags=0");
  EXPECT_EQ(got[1].Event().Int("res"), -EINVAL);
  EXPECT_EQ(got[1].Event().Int("op"), SECCOMP_GET_NOTIF_SIZES);
  EXPECT_EQ(got[1].Event().Int("flags"), 1);
}

}  // namespace
}  // namespace kestrel::testing
