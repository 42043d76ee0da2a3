// Builds records byte by byte the way the probe lays them out, for tests of
// the decoding side.
#ifndef KESTREL_TEST_UNIT_RECORD_TEST_BUILDER_H_
#define KESTREL_TEST_UNIT_RECORD_TEST_BUILDER_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "shared/event_types.h"

namespace kestrel::testing {

inline std::vector<uint8_t> GenericRecord(uint32_t id, const uint64_t (&args)[6], int64_t ret,
                                          uint32_t tid = 42, uint32_t tgid = 41) {
  kestrel_generic_record r{};
  r.hdr.ts_ns = 1'000'000'123;
  r.hdr.tid = tid;
  r.hdr.tgid = tgid;
  r.hdr.len = sizeof(r);
  r.hdr.type = KESTREL_EVT_GENERIC_SYSCALL;
  r.hdr.version = KESTREL_SCHEMA_VERSION;
  r.hdr.nparams = KESTREL_GENERIC_NPARAMS;
  for (auto& len : r.param_len) len = 8;
  r.syscall_id = id;
  std::memcpy(r.args, args, sizeof(r.args));
  r.ret = ret;
  std::vector<uint8_t> bytes(sizeof(r));
  std::memcpy(bytes.data(), &r, sizeof(r));
  return bytes;
}

inline std::vector<uint8_t> DropMarkerRecord(uint32_t cpu, uint64_t lost, uint64_t first_ns,
                                             uint64_t last_ns, uint64_t lost_total) {
  kestrel_drop_marker_record r{};
  r.hdr.ts_ns = 2'000'000'000;
  r.hdr.len = sizeof(r);
  r.hdr.type = KESTREL_EVT_DROP_MARKER;
  r.hdr.version = KESTREL_SCHEMA_VERSION;
  r.hdr.nparams = KESTREL_DROP_MARKER_NPARAMS;
  r.hdr.cpu = static_cast<uint16_t>(cpu);
  for (auto& len : r.param_len) len = 8;
  r.lost = lost;
  r.first_loss_ns = first_ns;
  r.last_loss_ns = last_ns;
  r.lost_total = lost_total;
  std::vector<uint8_t> bytes(sizeof(r));
  std::memcpy(bytes.data(), &r, sizeof(r));
  return bytes;
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_UNIT_RECORD_TEST_BUILDER_H_
