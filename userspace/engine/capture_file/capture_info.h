// What a capture was made with: the info block at the head of every capture
// file. Encoded as tagged fields (u16 tag, u16 zero, u32 length, bytes), so
// a reader skips tags it does not know and later writers can add some
// without a new format version.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_INFO_H_
#define KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_INFO_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace kestrel::engine::capture_file {

struct CaptureInfo {
  uint32_t schema_version = 0;  // KESTREL_SCHEMA_VERSION of the records
  // CLOCK_REALTIME minus CLOCK_BOOTTIME at start: adding it to a record's
  // ts_ns gives wall time.
  uint64_t boot_time_ns = 0;
  std::string hostname;
  std::string kernel_release;
  uint32_t cpu_count = 0;
  std::vector<uint32_t> syscalls;  // interesting syscall ids at start
  std::vector<uint8_t> settings;   // struct kestrel_capture_settings at start
  std::string writer;              // "kestrel 0.2.0"
  // The event schema of the records (schema_codec.h); empty in files
  // written before it was embedded.
  std::vector<uint8_t> event_schema;
};

std::vector<uint8_t> EncodeCaptureInfo(const CaptureInfo& info);
absl::StatusOr<CaptureInfo> DecodeCaptureInfo(std::span<const uint8_t> payload);

// The info of a capture starting now on this machine (schema version and
// the schema itself, boot time, host name, kernel release, CPU count); the caller adds the
// syscall set, settings and writer.
CaptureInfo CaptureInfoOfThisMachine();

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_CAPTURE_INFO_H_
