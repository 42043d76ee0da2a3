#include "event_decoder.h"

#include <arpa/inet.h>

#include <array>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/decode/nul_separated.h"

namespace kestrel::engine {
namespace {

// kestrel_param_fixed_size as a table: Decode checks every parameter of
// every record against it.
constexpr std::array<uint8_t, KPT_PARAM_TYPE_MAX> kFixedSizes = [] {
  std::array<uint8_t, KPT_PARAM_TYPE_MAX> sizes{};
  for (int t = 0; t < KPT_PARAM_TYPE_MAX; ++t) {
    sizes[t] = static_cast<uint8_t>(KESTREL_PARAM_FIXED_SIZE(static_cast<kestrel_param_type>(t)));
  }
  return sizes;
}();

size_t FixedSize(kestrel_param_type type) {
  return type < KPT_PARAM_TYPE_MAX ? kFixedSizes[type] : 0;
}

// Strings are stored with their NUL; drop it (and anything after it).
std::string_view AsString(std::span<const uint8_t> raw) {
  std::string_view s(reinterpret_cast<const char*>(raw.data()), raw.size());
  const size_t nul = s.find('\0');
  return nul == std::string_view::npos ? s : s.substr(0, nul);
}

std::vector<std::string> SplitNulSeparated(std::span<const uint8_t> raw) {
  return engine::SplitNulSeparated(
      std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
}

// An IPv4 address as inet_ntop writes it ("10.0.0.1"), without inet_ntop:
// glibc's formats each one through sprintf, which showed in the profile of
// a stream of connects and accepts (every tuple has two addresses).
void AssignIpv4(std::string& out, const uint8_t* address) {
  char text[INET_ADDRSTRLEN];
  char* p = text;
  for (int i = 0; i < 4; ++i) {
    if (i > 0) *p++ = '.';
    const unsigned v = address[i];
    if (v >= 100) *p++ = static_cast<char>('0' + v / 100);
    if (v >= 10) *p++ = static_cast<char>('0' + v / 10 % 10);
    *p++ = static_cast<char>('0' + v % 10);
  }
  out.assign(text, static_cast<size_t>(p - text));
}

// Parses one AF_INET/AF_INET6 address+port at `raw`, advancing it.
std::optional<SocketAddress> TakeInetAddress(uint8_t family, std::span<const uint8_t>& raw) {
  const size_t addr_len = family == KESTREL_AF_INET ? 4 : 16;
  if (raw.size() < addr_len + 2) return std::nullopt;
  SocketAddress a;
  a.family = family;
  if (family == KESTREL_AF_INET) {
    AssignIpv4(a.address, raw.data());
  } else {
    char text[INET6_ADDRSTRLEN] = {};
    inet_ntop(AF_INET6, raw.data(), text, sizeof(text));
    a.address = text;
  }
  std::memcpy(&a.port, raw.data() + addr_len, 2);
  raw = raw.subspan(addr_len + 2);
  return a;
}

}  // namespace

std::string SocketAddress::ToString() const {
  switch (family) {
    case KESTREL_AF_INET:
      return absl::StrCat(address, ":", port);
    case KESTREL_AF_INET6:
      return absl::StrCat("[", address, "]:", port);
    case KESTREL_AF_UNIX:
      return address;
    default:
      return absl::StrCat("family ", family);
  }
}

std::optional<SocketAddress> DecodeSocketAddress(std::span<const uint8_t> raw) {
  if (raw.empty()) return std::nullopt;
  const uint8_t family = raw[0];
  raw = raw.subspan(1);
  if (family == KESTREL_AF_UNIX) {
    SocketAddress a;
    a.family = family;
    a.address = std::string(AsString(raw));
    return a;
  }
  if (family == KESTREL_AF_INET || family == KESTREL_AF_INET6) return TakeInetAddress(family, raw);
  SocketAddress a;
  a.family = family;
  return a;
}

std::optional<std::vector<PolledFd>> DecodeFdList(std::span<const uint8_t> raw) {
  constexpr size_t kPairBytes = sizeof(int64_t) + sizeof(int16_t);
  if (raw.size() < sizeof(uint16_t)) return std::nullopt;
  uint16_t count;
  std::memcpy(&count, raw.data(), sizeof(count));
  raw = raw.subspan(sizeof(count));
  if (raw.size() != count * kPairBytes) return std::nullopt;
  std::vector<PolledFd> out(count);
  for (PolledFd& p : out) {
    std::memcpy(&p.fd, raw.data(), sizeof(p.fd));
    std::memcpy(&p.events, raw.data() + sizeof(p.fd), sizeof(p.events));
    raw = raw.subspan(kPairBytes);
  }
  return out;
}

absl::StatusOr<DecodedEvent> DecodedEvent::Decode(const RecordView& record) {
  return Decode(record, SchemaTable::Compiled());
}

absl::StatusOr<DecodedEvent> DecodedEvent::Decode(const RecordView& record,
                                                  const SchemaTable& schema) {
  const EventInfo* info = schema.Find(record.header().type);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrFormat("record type %u is not in the event schema", record.header().type));
  }
  if (record.nparams() != info->params.size()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s record has %u parameters, the schema says %u", info->name,
                        record.nparams(), info->params.size()));
  }
  for (uint32_t i = 0; i < record.nparams(); ++i) {
    const size_t want = FixedSize(info->params[i].type);
    const size_t got = record.param(i).size();
    // An empty parameter means "not available" (a filler was missing).
    if (want != 0 && got != 0 && got != want) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s.%s has %u bytes, expected %u", info->name, info->params[i].name, got, want));
    }
  }
  return absl::StatusOr<DecodedEvent>(absl::in_place, Key(), info, record);
}

std::span<const uint8_t> DecodedEvent::Raw(std::string_view name) const {
  return RawAt(info_->ParamIndex(name));
}

std::optional<int64_t> DecodedEvent::Int(std::string_view name) const {
  return IntAt(info_->ParamIndex(name));
}

std::optional<std::string> DecodedEvent::String(std::string_view name) const {
  const std::optional<std::string_view> text = StringView(name);
  if (!text) return std::nullopt;
  return std::string(*text);
}

std::optional<std::string_view> DecodedEvent::StringView(std::string_view name) const {
  return StringViewAt(info_->ParamIndex(name));
}

std::optional<std::string_view> DecodedEvent::StringViewAt(int i) const {
  if (i < 0) return std::nullopt;
  std::span<const uint8_t> raw = record_.param(static_cast<uint32_t>(i));
  if (info_->params[i].type == KPT_BYTEBUF) {
    return std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size());
  }
  return AsString(raw);
}

std::optional<std::vector<std::string>> DecodedEvent::StringList(std::string_view name) const {
  const int i = info_->ParamIndex(name);
  if (i < 0) return std::nullopt;
  return SplitNulSeparated(record_.param(static_cast<uint32_t>(i)));
}

bool DecodedEvent::AssignStringList(std::string_view name, std::vector<std::string>& out) const {
  const int i = info_->ParamIndex(name);
  if (i < 0) return false;
  std::span<const uint8_t> raw = record_.param(static_cast<uint32_t>(i));
  // As SplitNulSeparated splits, item by item into what `out` holds.
  std::string_view s(reinterpret_cast<const char*>(raw.data()), raw.size());
  size_t n = 0;
  while (!s.empty()) {
    const size_t nul = s.find('\0');
    const std::string_view item = s.substr(0, nul);
    if (n < out.size()) {
      out[n].assign(item);
    } else {
      out.emplace_back(item);
    }
    ++n;
    if (nul == std::string_view::npos) break;
    s.remove_prefix(nul + 1);
  }
  out.resize(n);
  return true;
}

std::optional<SocketAddress> DecodedEvent::Address(std::string_view name) const {
  return DecodeSocketAddress(Raw(name));
}

std::optional<std::pair<SocketAddress, SocketAddress>> DecodedEvent::Tuple(
    std::string_view name) const {
  std::span<const uint8_t> raw = Raw(name);
  if (raw.empty()) return std::nullopt;
  const uint8_t family = raw[0];
  raw = raw.subspan(1);
  if (family == KESTREL_AF_UNIX) {
    const std::vector<std::string> paths = SplitNulSeparated(raw);
    if (paths.size() != 2) return std::nullopt;
    return std::make_pair(SocketAddress{family, paths[0], 0}, SocketAddress{family, paths[1], 0});
  }
  if (family != KESTREL_AF_INET && family != KESTREL_AF_INET6) return std::nullopt;
  std::optional<SocketAddress> local = TakeInetAddress(family, raw);
  std::optional<SocketAddress> remote = TakeInetAddress(family, raw);
  if (!local || !remote) return std::nullopt;
  return std::make_pair(*local, *remote);
}

std::optional<std::vector<PolledFd>> DecodedEvent::FdList(std::string_view name) const {
  return DecodeFdList(Raw(name));
}

}  // namespace kestrel::engine
