#include "capture_info.h"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "schema_codec.h"
#include "shared/record_format.h"

namespace kestrel::engine::capture_file {
namespace {

enum Tag : uint16_t {
  kSchemaVersion = 1,
  kBootTime = 2,
  kHostname = 3,
  kKernelRelease = 4,
  kCpuCount = 5,
  kSyscalls = 6,
  kSettings = 7,
  kWriter = 8,
  // Numbered apart from the fields above so fields added next to them on
  // other branches cannot take the same tag.
  kEventSchema = 16,
};

void Put(std::vector<uint8_t>& out, Tag tag, const void* data, size_t n) {
  const uint16_t t = tag, zero = 0;
  const uint32_t len = static_cast<uint32_t>(n);
  const auto append = [&](const void* p, size_t k) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + k);
  };
  append(&t, sizeof(t));
  append(&zero, sizeof(zero));
  append(&len, sizeof(len));
  append(data, n);
}

template <typename T>
bool ReadScalar(std::span<const uint8_t> value, T& out) {
  if (value.size() != sizeof(T)) return false;
  std::memcpy(&out, value.data(), sizeof(T));
  return true;
}

uint64_t Nanoseconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

std::vector<uint8_t> EncodeCaptureInfo(const CaptureInfo& info) {
  std::vector<uint8_t> out;
  Put(out, kSchemaVersion, &info.schema_version, sizeof(info.schema_version));
  Put(out, kBootTime, &info.boot_time_ns, sizeof(info.boot_time_ns));
  Put(out, kHostname, info.hostname.data(), info.hostname.size());
  Put(out, kKernelRelease, info.kernel_release.data(), info.kernel_release.size());
  Put(out, kCpuCount, &info.cpu_count, sizeof(info.cpu_count));
  Put(out, kSyscalls, info.syscalls.data(), info.syscalls.size() * sizeof(uint32_t));
  Put(out, kSettings, info.settings.data(), info.settings.size());
  Put(out, kWriter, info.writer.data(), info.writer.size());
  if (!info.event_schema.empty()) {
    Put(out, kEventSchema, info.event_schema.data(), info.event_schema.size());
  }
  return out;
}

absl::StatusOr<CaptureInfo> DecodeCaptureInfo(std::span<const uint8_t> payload) {
  CaptureInfo info;
  bool has_schema = false;
  size_t at = 0;
  while (at < payload.size()) {
    if (payload.size() - at < 8) {
      return absl::DataLossError(absl::StrFormat("info field at byte %u is cut short", at));
    }
    uint16_t tag;
    uint32_t len;
    std::memcpy(&tag, payload.data() + at, sizeof(tag));
    std::memcpy(&len, payload.data() + at + 4, sizeof(len));
    at += 8;
    if (len > payload.size() - at) {
      return absl::DataLossError(absl::StrFormat("info field %u claims %u bytes, %u remain", tag,
                                                 len, payload.size() - at));
    }
    const std::span<const uint8_t> value = payload.subspan(at, len);
    const auto text = [&] { return std::string(value.begin(), value.end()); };
    bool ok = true;
    switch (tag) {
      case kSchemaVersion:
        ok = ReadScalar(value, info.schema_version);
        has_schema = ok;
        break;
      case kBootTime:
        ok = ReadScalar(value, info.boot_time_ns);
        break;
      case kHostname:
        info.hostname = text();
        break;
      case kKernelRelease:
        info.kernel_release = text();
        break;
      case kCpuCount:
        ok = ReadScalar(value, info.cpu_count);
        break;
      case kSyscalls:
        ok = value.size() % sizeof(uint32_t) == 0;
        if (ok) {
          info.syscalls.resize(value.size() / sizeof(uint32_t));
          if (!value.empty()) std::memcpy(info.syscalls.data(), value.data(), value.size());
        }
        break;
      case kSettings:
        info.settings.assign(value.begin(), value.end());
        break;
      case kWriter:
        info.writer = text();
        break;
      case kEventSchema:
        info.event_schema.assign(value.begin(), value.end());
        break;
      default:  // a later writer's field
        break;
    }
    if (!ok) {
      return absl::DataLossError(
          absl::StrFormat("info field %u has a bad size (%u bytes)", tag, len));
    }
    at += len;
  }
  if (!has_schema) return absl::DataLossError("the info block has no schema version");
  return info;
}

CaptureInfo CaptureInfoOfThisMachine() {
  CaptureInfo info;
  info.schema_version = KESTREL_SCHEMA_VERSION;
  // Encoded once: every file of a run (rotation) carries the same one.
  static const auto* schema = new std::vector<uint8_t>(EncodeSchema(SchemaTable::Compiled()));
  info.event_schema = *schema;
  info.boot_time_ns = Nanoseconds(CLOCK_REALTIME) - Nanoseconds(CLOCK_BOOTTIME);
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) info.hostname = host;
  utsname u{};
  if (uname(&u) == 0) info.kernel_release = u.release;
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  info.cpu_count = cpus > 0 ? static_cast<uint32_t>(cpus) : 0;
  return info;
}

}  // namespace kestrel::engine::capture_file
