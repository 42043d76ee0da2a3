// Decodes specific-event records against the schema: every parameter is
// checked for the size its type requires, and can be read by name.
#ifndef KESTREL_ENGINE_DECODE_EVENT_DECODER_H_
#define KESTREL_ENGINE_DECODE_EVENT_DECODER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "event_schema.h"
#include "record_view.h"
#include "schema_table.h"

namespace kestrel::engine {

// One descriptor of a KPT_FDLIST (poll's pollfds) and its event bits.
struct PolledFd {
  int64_t fd = 0;
  int16_t events = 0;
};

// A decoded socket address (KPT_SOCKADDR, or one end of a KPT_SOCKTUPLE).
struct SocketAddress {
  uint8_t family = 0;   // KESTREL_AF_*
  std::string address;  // "127.0.0.1", "::1", or the unix path
  uint16_t port = 0;

  std::string ToString() const;  // "127.0.0.1:80", "[::1]:80", "/run/x.sock"
};

class DecodedEvent {
 public:
  // Fails when `record` is not a specific event or does not match the schema.
  // Decode(record) uses this build's schema; a capture file's records use
  // the schema the file was written with (CaptureReader::schema()).
  static absl::StatusOr<DecodedEvent> Decode(const RecordView& record);
  static absl::StatusOr<DecodedEvent> Decode(const RecordView& record, const SchemaTable& schema);

  const EventInfo& info() const { return *info_; }
  const RecordView& record() const { return record_; }

  // Raw bytes of the parameter called `name` (empty if absent or unknown).
  std::span<const uint8_t> Raw(std::string_view name) const;

  // Typed reads by parameter name; nullopt when the name is not a parameter
  // of this event or has no value.
  std::optional<int64_t> Int(std::string_view name) const;
  // The syscall's return value, whatever the event names it; nullopt for
  // events of no syscall.
  std::optional<int64_t> Return() const;
  std::optional<std::string> String(std::string_view name) const;  // paths, charbufs, bytes
  std::optional<std::vector<std::string>> StringList(std::string_view name) const;
  std::optional<SocketAddress> Address(std::string_view name) const;
  // Local and remote ends of a socket tuple.
  std::optional<std::pair<SocketAddress, SocketAddress>> Tuple(std::string_view name) const;
  // A descriptor list; nullopt when its bytes do not hold the count it says.
  std::optional<std::vector<PolledFd>> FdList(std::string_view name) const;

 private:
  DecodedEvent(const EventInfo* info, const RecordView& record) : info_(info), record_(record) {}

  const EventInfo* info_;
  RecordView record_;
};

// Reads one value of `type` (integers sign-extended per type).
std::optional<int64_t> DecodeInteger(kestrel_param_type type, std::span<const uint8_t> raw);
std::optional<SocketAddress> DecodeSocketAddress(std::span<const uint8_t> raw);
std::optional<std::vector<PolledFd>> DecodeFdList(std::span<const uint8_t> raw);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_EVENT_DECODER_H_
