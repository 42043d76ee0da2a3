// A loaded and attached probe for one test, with helpers to read back what
// the test's own thread did.
#ifndef KESTREL_TEST_INTEGRATION_PROBE_SESSION_H_
#define KESTREL_TEST_INTEGRATION_PROBE_SESSION_H_

#include <gtest/gtest.h>
#include <sched.h>

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "engine/decode/control_records.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/generic_syscall.h"
#include "libpman.h"

namespace kestrel::testing {

// Skips the test when the process cannot load BPF programs. Root always can,
// so under the README's test command (root) this never skips: a load
// failure there is a test failure.
#define KESTREL_REQUIRE_BPF_PRIVILEGES()                                     \
  do {                                                                       \
    if (!::kestrel::testing::HasBpfPrivileges())                             \
      GTEST_SKIP() << "needs root or CAP_BPF+CAP_PERFMON to load the probe"; \
  } while (0)

bool HasBpfPrivileges();

// Producers on two CPUs at once. A machine with fewer online CPUs fails the
// test instead of skipping it: a skipped stress test would read as a pass.
#define KESTREL_REQUIRE_TWO_CPUS() \
  ASSERT_GE(std::thread::hardware_concurrency(), 2u) << "needs two online CPUs"

struct Captured {
  kestrel_record_header header;
  engine::GenericSyscall call;
};

// A record copied out of the ring, so it outlives the next consume call.
class OwnedRecord {
 public:
  explicit OwnedRecord(const kestrel_record_header* h)
      : bytes_(reinterpret_cast<const uint8_t*>(h), reinterpret_cast<const uint8_t*>(h) + h->len) {}

  const kestrel_record_header& header() const {
    return *reinterpret_cast<const kestrel_record_header*>(bytes_.data());
  }
  // Decodes against the schema; fails the test when it does not decode.
  engine::DecodedEvent Event() const;

 private:
  std::vector<uint8_t> bytes_;
};

struct SessionOptions {
  uint64_t buffer_bytes = 1 << 20;
  uint32_t cpus_per_buffer = 0;
  std::vector<uint32_t> syscalls;
  bool trace_only_this_process = true;
  uint32_t settings_storage = PMAN_SETTINGS_STORAGE_DEFAULT;
  uint32_t flags = 0;  // PMAN_OPT_*
};

class ProbeSession {
 public:
  // Loads and attaches; fails the test (returns nullptr) on any error.
  // While a suite shares its probe (ShareInSuite), returns that probe
  // instead, set back to what a fresh load with `options` would have: the
  // settings, the syscall table, the drop classes and the omitted
  // parameters, with every record written before dropped.
  static std::unique_ptr<ProbeSession> Start(const SessionOptions& options);
  ~ProbeSession();

  // From a suite's SetUpTestSuite: its cases' Start() calls load one probe,
  // on the first call, and reuse it (a load is seconds of verifier time).
  // Only for suites whose cases read their own records and hold one session
  // at a time: the probe's counters and rings outlive each case, and two
  // sessions of one case would be one probe. StopSharing, from
  // TearDownTestSuite, unloads it.
  static void ShareInSuite();
  static void StopSharing();

  pman_handle* handle() const { return handle_; }

  // Reads every record now in the rings and keeps those of thread `tid`.
  std::vector<Captured> DrainThread(uint32_t tid);

  // Copies out every record now in the rings that thread `tid` wrote.
  std::vector<OwnedRecord> DrainRecords(uint32_t tid);

  // Reads every record now in the rings; returns how many there were.
  uint64_t DrainAll();

  pman_stats Stats();

  // Reads records until the settings_changed record that reports the
  // current generation (waiting up to two seconds), dropping all other
  // records; returns every settings_changed record read, oldest first, or
  // nothing on timeout. Start() calls it, so a test begins with an empty
  // stream.
  std::vector<engine::SettingsChanged> AwaitSettingsChanged();

  // Every record now in the rings, copied out, in consumption order.
  std::vector<std::vector<uint8_t>> DrainRaw();

 private:
  ProbeSession(pman_handle* h, bool owned) : handle_(h), owned_(owned) {}
  static std::unique_ptr<ProbeSession> Load(const SessionOptions& options);
  static std::unique_ptr<ProbeSession> Reuse(const SessionOptions& options);
  pman_handle* handle_;
  bool owned_;
};

uint32_t CurrentTid();

// The handle's current settings and settings generation (failing the test
// on error).
kestrel_capture_settings CurrentSettings(pman_handle* h);
uint64_t SettingsGeneration(pman_handle* h);

// What records keep of I/O and socket data; everything else is left as is.
struct DataCapture {
  bool io_data = false;
  uint32_t snaplen = 0;  // 0 keeps the current one
  uint16_t fullcapture_port_lo = 0;
  uint16_t fullcapture_port_hi = 0;  // 0 = no full-capture range
};
void SetDataCapture(pman_handle* h, const DataCapture& data);

// getppid ignores its arguments, but the registers still carry them to the
// probe: a cheap way to tag each call with a number.
long TaggedGetppid(uint64_t tag);

// Keeps the calling thread on one CPU while alive.
class ScopedCpuPin {
 public:
  explicit ScopedCpuPin(int cpu);
  ~ScopedCpuPin();

 private:
  cpu_set_t old_;
};

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_PROBE_SESSION_H_
