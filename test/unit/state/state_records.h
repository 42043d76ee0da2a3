// Feeding synthetic records to a ThreadTable, for the state's update tests.
#ifndef KESTREL_TEST_UNIT_STATE_STATE_RECORDS_H_
#define KESTREL_TEST_UNIT_STATE_STATE_RECORDS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/state/thread_table.h"
#include "event_record_builder.h"

namespace kestrel::testing {

inline engine::ThreadTableOptions NoProcFallback() {
  engine::ThreadTableOptions o;
  o.proc_fallback = false;
  return o;
}

inline void ApplyRecord(engine::ThreadTable& table, const std::vector<uint8_t>& bytes) {
  absl::StatusOr<engine::RecordView> view = engine::RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status();
  table.Apply(*view);
}

// A socket tuple or address parameter for an IPv4 end: address bytes in
// network order, port in host order (as the probe writes them).
inline void AppendInet(ParamBytes& out, const uint8_t (&addr)[4], uint16_t port) {
  out.insert(out.end(), addr, addr + 4);
  out.push_back(static_cast<uint8_t>(port & 0xff));
  out.push_back(static_cast<uint8_t>(port >> 8));
}

inline ParamBytes Ipv4Tuple(const uint8_t (&local)[4], uint16_t lport, const uint8_t (&remote)[4],
                            uint16_t rport) {
  ParamBytes b{KESTREL_AF_INET};
  AppendInet(b, local, lport);
  AppendInet(b, remote, rport);
  return b;
}

inline ParamBytes Ipv4Address(const uint8_t (&addr)[4], uint16_t port) {
  ParamBytes b{KESTREL_AF_INET};
  AppendInet(b, addr, port);
  return b;
}

inline ParamBytes UnixAddress(const std::string& path) {
  ParamBytes b{KESTREL_AF_UNIX};
  b.insert(b.end(), path.begin(), path.end());
  b.push_back(0);
  return b;
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_UNIT_STATE_STATE_RECORDS_H_
