#include "agent/outputs/delivery_failure.h"

#include <string.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/types/optional.h"

namespace kestrel::agent::outputs {
namespace {

// The payload's key: "<cause>:<errno>" under it. (Abseil's string_view
// here is its own type, not std's.)
constexpr absl::string_view kCauseUrl = "kestrel.dev/alerts/delivery-failure";
// DropError's: the DropCause's number.
constexpr absl::string_view kDropUrl = "kestrel.dev/alerts/dropped";

constexpr int kCauses = static_cast<int>(FailureCause::kOther) + 1;

}  // namespace

std::string_view FailureCauseName(FailureCause cause) {
  switch (cause) {
    case FailureCause::kWriteError:
      return "write error";
    case FailureCause::kOpenError:
      return "open error";
    case FailureCause::kConnectError:
      return "connect error";
    case FailureCause::kSpawnError:
      return "spawn error";
    case FailureCause::kProgramNotFound:
      return "program not found";
    case FailureCause::kNonzeroExit:
      return "nonzero exit";
    case FailureCause::kTimeout:
      return "timeout";
    case FailureCause::kHttpStatus:
      return "http error status";
    case FailureCause::kTlsError:
      return "tls error";
    case FailureCause::kHttpError:
      return "http error";
    case FailureCause::kKafkaError:
      return "kafka error";
    case FailureCause::kCutAtStop:
      return "cut off at shutdown";
    case FailureCause::kOther:
      break;
  }
  return "other error";
}

std::string FailureKeyName(const FailureKey& key) {
  std::string name(FailureCauseName(key.cause));
  if (key.cause == FailureCause::kKafkaError) {
    absl::StrAppend(&name, ": ", KafkaErrorName(key.err));
  } else if (key.err != 0) {
    absl::StrAppend(&name, ": ", strerror(key.err));
  }
  return name;
}

absl::Status DeliveryError(FailureCause cause, std::string_view message, int err) {
  // The code follows the errno when there is one, as absl::ErrnoToStatus
  // would give it; the counters read the payload, never the code.
  const bool errno_code = err != 0 && cause != FailureCause::kKafkaError;
  absl::Status s(errno_code ? absl::ErrnoToStatusCode(err) : absl::StatusCode::kUnavailable,
                 absl::string_view(message.data(), message.size()));
  s.SetPayload(kCauseUrl, absl::Cord(absl::StrCat(static_cast<int>(cause), ":", err)));
  return s;
}

FailureKey FailureOf(const absl::Status& status) {
  if (absl::optional<absl::Cord> payload = status.GetPayload(kCauseUrl)) {
    const std::pair<std::string, std::string> parts =
        absl::StrSplit(std::string(*payload), absl::MaxSplits(':', 1));
    int cause = 0, err = 0;
    if (absl::SimpleAtoi(parts.first, &cause) && absl::SimpleAtoi(parts.second, &err) &&
        cause >= 0 && cause < kCauses) {
      return FailureKey{static_cast<FailureCause>(cause), err};
    }
  }
  switch (status.code()) {
    case absl::StatusCode::kDeadlineExceeded:
      return FailureKey{FailureCause::kTimeout, 0};
    case absl::StatusCode::kCancelled:
      return FailureKey{FailureCause::kCutAtStop, 0};
    default:
      return FailureKey{FailureCause::kOther, 0};
  }
}

std::string_view DropCauseName(DropCause cause) {
  switch (cause) {
    case DropCause::kQueueFull:
      return "queue full";
    case DropCause::kClosed:
      break;
  }
  return "closed at shutdown";
}

absl::Status DropError(DropCause cause, std::string_view message) {
  absl::Status s(absl::StatusCode::kResourceExhausted,
                 absl::string_view(message.data(), message.size()));
  s.SetPayload(kDropUrl, absl::Cord(absl::StrCat(static_cast<int>(cause))));
  return s;
}

bool DropOf(const absl::Status& status, DropCause& cause) {
  absl::optional<absl::Cord> payload = status.GetPayload(kDropUrl);
  int n = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &n) || n < 0 ||
      n > static_cast<int>(DropCause::kClosed)) {
    return false;
  }
  cause = static_cast<DropCause>(n);
  return true;
}

}  // namespace kestrel::agent::outputs
