// The fixture the file-event tests share: a probe that traces this process
// for the syscalls a test names, a private directory, and helpers to pick
// the records a test made.
#ifndef KESTREL_TEST_INTEGRATION_FILE_EVENTS_FIXTURE_H_
#define KESTREL_TEST_INTEGRATION_FILE_EVENTS_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host_files.h"
#include "probe_session.h"
#include "shared/event_types.h"
#include "temp_dir.h"

namespace kestrel::testing {

struct FileSessionOptions {
  bool capture_io_data = false;
  uint32_t snaplen = 0;  // 0 keeps the default
  bool trace_only_this_process = true;
};

class FileEventsTest : public ::testing::Test {
 protected:
  // One probe for the suite: its cases read only their own records.
  static void SetUpTestSuite() { ProbeSession::ShareInSuite(); }
  static void TearDownTestSuite() { ProbeSession::StopSharing(); }
  void SetUp() override { KESTREL_REQUIRE_BPF_PRIVILEGES(); }

  std::unique_ptr<ProbeSession> Start(std::vector<uint32_t> syscalls,
                                      FileSessionOptions options = {}) {
    std::unique_ptr<ProbeSession> session =
        ProbeSession::Start({.syscalls = std::move(syscalls),
                             .trace_only_this_process = options.trace_only_this_process});
    if (session == nullptr) return nullptr;
    SetDataCapture(session->handle(),
                   {.io_data = options.capture_io_data, .snaplen = options.snaplen});
    return session;
  }

  // Records of thread `tid` (this one by default) of event `type`, in order.
  static std::vector<OwnedRecord> Drain(ProbeSession& session, uint16_t type,
                                        uint32_t tid = CurrentTid()) {
    return std::move(DrainByType(session, tid)[type]);
  }

  // Every record of thread `tid` now in the rings, by event type, in order.
  static std::map<uint16_t, std::vector<OwnedRecord>> DrainByType(ProbeSession& session,
                                                                  uint32_t tid = CurrentTid()) {
    std::map<uint16_t, std::vector<OwnedRecord>> out;
    for (OwnedRecord& r : session.DrainRecords(tid)) out[r.header().type].push_back(std::move(r));
    return out;
  }

  static struct stat Stat(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
    return st;
  }

  TempDir dir_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_FILE_EVENTS_FIXTURE_H_
