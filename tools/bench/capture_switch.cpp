#include "bench/capture_switch.h"

#include <chrono>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "libpman.h"
#include "libpman_control.h"

namespace kestrel::bench {

void CaptureSwitch::ControlCloser::operator()(pman_control* c) const { pman_control_close(c); }

absl::StatusOr<CaptureSwitch> CaptureSwitch::Open(const std::string& pin_dir) {
  pman_control* raw = nullptr;
  if (const int rc = pman_control_open(pin_dir.c_str(), nullptr, nullptr, &raw); rc != 0) {
    return absl::InternalError(
        absl::StrCat("opening the run pinned at ", pin_dir, ": errno ", -rc));
  }
  std::unique_ptr<pman_control, ControlCloser> control(raw);
  if (pman_control_is_read_only(raw) == 1) {
    return absl::FailedPreconditionError(absl::StrCat("the run pinned at ", pin_dir, " is locked"));
  }
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < pman_syscall_table_size(); ++id) {
    if (pman_control_is_syscall_interesting(raw, id) == 1) ids.push_back(id);
  }
  if (ids.empty()) return absl::FailedPreconditionError("the pinned run captures no syscall");
  return CaptureSwitch(std::move(control), std::move(ids));
}

absl::Status CaptureSwitch::Set(bool on, KestrelRunChild& run) {
  for (const uint32_t id : ids_) {
    if (const int rc = pman_control_mark_syscall(control_.get(), id, on); rc != 0) {
      return absl::InternalError(absl::StrCat("marking syscall ", id, ": errno ", -rc));
    }
  }
  const std::string_view said = on ? "kestrel run: syscall-exit hook attached again"
                                   : "kestrel run: syscall-exit hook detached";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    for (const std::string& line : run.Read(50)) {
      if (line.starts_with(said)) return absl::OkStatus();
    }
  }
  return absl::DeadlineExceededError(
      absl::StrCat("kestrel run did not say \"", std::string(said), "\" within 5 s"));
}

}  // namespace kestrel::bench
