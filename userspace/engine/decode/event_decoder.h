// Decodes specific-event records against the schema: every parameter is
// checked for the size its type requires, and can be read by name.
#ifndef KESTREL_ENGINE_DECODE_EVENT_DECODER_H_
#define KESTREL_ENGINE_DECODE_EVENT_DECODER_H_

#include <cstdint>
#include <cstring>
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
  std::span<const uint8_t> Raw(KnownParam name) const { return RawAt(info_->ParamIndex(name)); }

  // Typed reads by parameter name; nullopt when the name is not a parameter
  // of this event or has no value. The KnownParam forms read the same
  // parameters without comparing names (for the per-event paths).
  std::optional<int64_t> Int(std::string_view name) const;
  std::optional<int64_t> Int(KnownParam name) const { return IntAt(info_->ParamIndex(name)); }
  // The syscall's return value, whatever the event names it; nullopt for
  // events of no syscall.
  std::optional<int64_t> Return() const { return IntAt(info_->return_index); }
  std::optional<std::string> String(std::string_view name) const;  // paths, charbufs, bytes
  // What String() holds, as a view into the record (valid while the record
  // is): no copy.
  std::optional<std::string_view> StringView(std::string_view name) const;
  std::optional<std::string_view> StringView(KnownParam name) const {
    return StringViewAt(info_->ParamIndex(name));
  }
  std::optional<std::vector<std::string>> StringList(std::string_view name) const;
  // StringList(name) into `out`, reusing its strings' buffers: exec and
  // clone records carry argv (and exec the environment) on every process
  // start. False, leaving `out` as it was, when the parameter is absent.
  bool AssignStringList(std::string_view name, std::vector<std::string>& out) const;
  std::optional<SocketAddress> Address(std::string_view name) const;
  // Local and remote ends of a socket tuple.
  std::optional<std::pair<SocketAddress, SocketAddress>> Tuple(std::string_view name) const;
  // A descriptor list; nullopt when its bytes do not hold the count it says.
  std::optional<std::vector<PolledFd>> FdList(std::string_view name) const;

 private:
  // Only Decode makes one, in place in its StatusOr (absl::in_place needs
  // a public constructor; this key keeps it Decode's): building it aside
  // and copying it in stalled on the stores just made (store forwarding).
  struct Key {
    explicit Key() = default;
  };

 public:
  DecodedEvent(Key, const EventInfo* info, const RecordView& record)
      : info_(info), record_(record) {}

 private:
  // By parameter index; -1 (no such parameter) reads as absent.
  std::span<const uint8_t> RawAt(int i) const {
    return i < 0 ? std::span<const uint8_t>() : record_.param(static_cast<uint32_t>(i));
  }
  std::optional<int64_t> IntAt(int i) const;
  std::optional<std::string_view> StringViewAt(int i) const;

  const EventInfo* info_;
  RecordView record_;
};

// Reads one value of `type` (integers sign-extended per type). Inline: it
// runs for most parameters read, several times per event.
inline std::optional<int64_t> DecodeInteger(kestrel_param_type type, std::span<const uint8_t> raw) {
  const size_t size = kestrel_param_fixed_size(type);
  if (size == 0 || raw.size() != size) return std::nullopt;
  if (size == 8) {
    int64_t v;
    std::memcpy(&v, raw.data(), 8);
    return v;
  }
  if (type == KPT_INT32) {
    int32_t v;
    std::memcpy(&v, raw.data(), 4);
    return v;
  }
  uint32_t v;
  std::memcpy(&v, raw.data(), 4);
  return v;
}

inline std::optional<int64_t> DecodedEvent::IntAt(int i) const {
  if (i < 0) return std::nullopt;
  return DecodeInteger(info_->params[i].type, record_.param(static_cast<uint32_t>(i)));
}

std::optional<SocketAddress> DecodeSocketAddress(std::span<const uint8_t> raw);
std::optional<std::vector<PolledFd>> DecodeFdList(std::span<const uint8_t> raw);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_DECODE_EVENT_DECODER_H_
