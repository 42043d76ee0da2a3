// A fixture for per-syscall event tests: a probe started clean, and the
// records this thread wrote, checked to be of one type and unflagged.
#ifndef KESTREL_TEST_INTEGRATION_EVENT_TEST_FIXTURE_H_
#define KESTREL_TEST_INTEGRATION_EVENT_TEST_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "probe_session.h"
#include "temp_dir.h"

namespace kestrel::testing {

class EventTest : public ::testing::Test {
 protected:
  // One probe for the suite: its cases read only their own records.
  static void SetUpTestSuite() { ProbeSession::ShareInSuite(); }
  static void TearDownTestSuite() { ProbeSession::StopSharing(); }
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }

  // Starts a probe and drops what the start itself produced: loading and
  // attaching make bpf, ioctl and other calls of their own.
  std::unique_ptr<ProbeSession> Start(std::vector<uint32_t> syscalls) {
    auto session = ProbeSession::Start({.syscalls = std::move(syscalls)});
    if (session) session->DrainRecords(CurrentTid());
    return session;
  }

  // Every record this thread wrote since the last drain; all of `type`.
  std::vector<OwnedRecord> Drain(ProbeSession& session, uint16_t type) {
    std::vector<OwnedRecord> got = session.DrainRecords(CurrentTid());
    for (const OwnedRecord& r : got) {
      EXPECT_EQ(r.header().type, type);
      EXPECT_EQ(r.header().flags, 0);
    }
    return got;
  }

  TempDir dir_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_EVENT_TEST_FIXTURE_H_
