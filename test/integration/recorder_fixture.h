// Helpers for flight-recorder tests: unique pin roots that are always
// cleaned up, running the kestrel binary, and tagged syscalls whose
// arguments carry a checksum.
#ifndef KESTREL_TEST_INTEGRATION_RECORDER_FIXTURE_H_
#define KESTREL_TEST_INTEGRATION_RECORDER_FIXTURE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/decode/generic_syscall.h"
#include "libpman_recorder.h"

namespace kestrel::testing {

// A recorder name under a pin root no other test or process uses. The
// destructor stops the recorder (if still running) and removes the root,
// whether or not the test passed.
class ScopedRecorderPins {
 public:
  explicit ScopedRecorderPins(const std::string& name);
  ~ScopedRecorderPins();
  ScopedRecorderPins(const ScopedRecorderPins&) = delete;
  ScopedRecorderPins& operator=(const ScopedRecorderPins&) = delete;

  const std::string& root() const { return root_; }
  const std::string& name() const { return name_; }
  std::string dir() const { return root_ + "/" + name_; }
  // Options naming this recorder, logging to stderr.
  pman_recorder_options Options() const;

 private:
  std::string root_;
  std::string name_;
};

// The six arguments of tagged call `tag`: args[0] is the tag, the others a
// checksum of it, so a record mixing two calls is always detected.
std::array<uint64_t, 6> TaggedArgs(uint64_t tag);

// getppid with TaggedArgs(tag) in its argument registers.
long ChecksummedGetppid(uint64_t tag);

// True when `args` is exactly TaggedArgs(args[0]).
bool ChecksumHolds(const std::array<uint64_t, 6>& args);

struct DumpedCall {
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string syscall;
  std::array<uint64_t, 6> args{};
};

// Parses the lines of `kestrel dump --json`.
std::vector<DumpedCall> ParseJsonDump(const std::string& out);

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_INTEGRATION_RECORDER_FIXTURE_H_
