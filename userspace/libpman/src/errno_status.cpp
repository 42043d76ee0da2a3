#include "errno_status.h"

#include <cerrno>
#include <string>

#include "absl/strings/numbers.h"

namespace kestrel::pman {
namespace {

constexpr char kErrnoPayload[] = "kestrel.dev/errno";

}  // namespace

absl::Status ErrnoStatus(int error, const std::string& message) {
  absl::Status status =
      absl::ErrnoToStatus(error, message);  // which appends strerror(error) itself
  status.SetPayload(kErrnoPayload, absl::Cord(std::to_string(error)));
  return status;
}

int StatusToErrno(const absl::Status& status) {
  if (status.ok()) return 0;
  if (auto payload = status.GetPayload(kErrnoPayload)) {
    int error = 0;
    if (absl::SimpleAtoi(std::string(*payload), &error) && error > 0) return error;
  }
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      return EINVAL;
    case absl::StatusCode::kNotFound:
      return ENOENT;
    case absl::StatusCode::kPermissionDenied:
      return EPERM;
    case absl::StatusCode::kFailedPrecondition:
      return EBADFD;
    case absl::StatusCode::kResourceExhausted:
      return ENOMEM;
    case absl::StatusCode::kOutOfRange:
      return ERANGE;
    case absl::StatusCode::kAlreadyExists:
      return EEXIST;
    case absl::StatusCode::kUnimplemented:
      return ENOSYS;
    default:
      return EIO;
  }
}

}  // namespace kestrel::pman
