// Turns the capture of a pinned `kestrel run` off and on from the bench,
// through the syscall table it pinned (libpman_control.h). Off, every
// syscall the run captures is marked uninteresting and the run detaches its
// syscall-exit hook (pman_follow_syscall_set): a load then runs as under no
// probe at all, while the run, its rules and its state stay as they were.
// That lets a bench alternate "alone" and "under kestrel run" every half
// second, where restarting the run (seconds of verification) spaced them
// far enough apart for the machine's own speed to drift between them.
#ifndef KESTREL_TOOLS_BENCH_CAPTURE_SWITCH_H_
#define KESTREL_TOOLS_BENCH_CAPTURE_SWITCH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/kestrel_run_child.h"

struct pman_control;

namespace kestrel::bench {

class CaptureSwitch {
 public:
  // Over the run pinned at `pin_dir`; the run must let other processes
  // change its probe (-o allow_outside_changes=true).
  static absl::StatusOr<CaptureSwitch> Open(const std::string& pin_dir);

  // Turns the capture on or off and waits until `run` said its hook
  // followed (at most 5 s).
  absl::Status Set(bool on, KestrelRunChild& run);

 private:
  struct ControlCloser {
    void operator()(pman_control* c) const;
  };
  CaptureSwitch(std::unique_ptr<pman_control, ControlCloser> control, std::vector<uint32_t> ids)
      : control_(std::move(control)), ids_(std::move(ids)) {}

  std::unique_ptr<pman_control, ControlCloser> control_;
  std::vector<uint32_t> ids_;  // the syscalls the run captures
};

}  // namespace kestrel::bench

#endif  // KESTREL_TOOLS_BENCH_CAPTURE_SWITCH_H_
