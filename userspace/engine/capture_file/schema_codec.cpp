#include "schema_codec.h"

#include <zstd.h>

#include <cstring>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine/decode/flag_set_names.h"

namespace kestrel::engine::capture_file {
namespace {

template <typename T>
void PutScalar(std::vector<uint8_t>& out, T v) {
  const auto* b = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), b, b + sizeof(v));
}

void PutString(std::vector<uint8_t>& out, std::string_view s) {
  PutScalar<uint16_t>(out, static_cast<uint16_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

// Reads from the front of the bytes; any read past the end sets `cut`.
class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  template <typename T>
  T Scalar() {
    T v{};
    if (bytes_.size() < sizeof(T)) {
      cut_ = true;
      return v;
    }
    std::memcpy(&v, bytes_.data(), sizeof(T));
    bytes_ = bytes_.subspan(sizeof(T));
    return v;
  }
  std::string_view String() {
    const uint16_t n = Scalar<uint16_t>();
    if (bytes_.size() < n) {
      cut_ = true;
      return {};
    }
    std::string_view s(reinterpret_cast<const char*>(bytes_.data()), n);
    bytes_ = bytes_.subspan(n);
    return s;
  }
  bool cut() const { return cut_; }
  size_t left() const { return bytes_.size(); }

 private:
  std::span<const uint8_t> bytes_;
  bool cut_ = false;
};

kestrel_param_type TypeNamed(std::string_view name) {
  for (int t = KPT_NONE + 1; t < KPT_PARAM_TYPE_MAX; ++t) {
    if (ParamTypeName(static_cast<kestrel_param_type>(t)) == name) {
      return static_cast<kestrel_param_type>(t);
    }
  }
  return KPT_BYTEBUF;  // a newer writer's type: its bytes are all we know
}

kestrel_flag_set FlagSetNamed(std::string_view name) {
  if (name.empty()) return KFS_NONE;
  for (int f = KFS_NONE + 1; f < KFS_FLAG_SET_MAX; ++f) {
    if (FlagSetName(static_cast<kestrel_flag_set>(f)) == name) {
      return static_cast<kestrel_flag_set>(f);
    }
  }
  return KFS_NONE;
}

// Far more than any schema: a frame claiming more is damage.
constexpr size_t kMaxSchemaBytes = 16u << 20;
// Written once per file and worth the time: the smallest frame.
constexpr int kSchemaZstdLevel = 19;

std::vector<uint8_t> Raw(const SchemaTable& schema);

}  // namespace

std::vector<uint8_t> EncodeSchema(const SchemaTable& schema) {
  const std::vector<uint8_t> raw = Raw(schema);
  std::vector<uint8_t> out(ZSTD_compressBound(raw.size()));
  const size_t n = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), kSchemaZstdLevel);
  out.resize(ZSTD_isError(n) ? 0 : n);
  return out;
}

namespace {

std::vector<uint8_t> Raw(const SchemaTable& schema) {
  std::vector<uint8_t> out;
  PutScalar<uint32_t>(out, static_cast<uint32_t>(schema.events().size()));
  for (const EventInfo& e : schema.events()) {
    PutScalar<uint16_t>(out, e.type);
    PutString(out, e.name);
    PutString(out, e.syscall);
    PutScalar<uint16_t>(out, static_cast<uint16_t>(e.params.size()));
    for (const ParamInfo& p : e.params) {
      PutString(out, p.name);
      PutString(out, ParamTypeName(p.type));
      PutScalar<uint8_t>(out, static_cast<uint8_t>(p.source));
      PutString(out, FlagSetName(p.flag_set));
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<SchemaTable>> DecodeSchema(std::span<const uint8_t> frame,
                                                          uint32_t version) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
      size > kMaxSchemaBytes) {
    return absl::DataLossError("the embedded event schema is damaged (not a zstd frame)");
  }
  std::vector<uint8_t> bytes(size);
  const size_t n = ZSTD_decompress(bytes.data(), bytes.size(), frame.data(), frame.size());
  if (ZSTD_isError(n) || n != size) {
    return absl::DataLossError("the embedded event schema is damaged (does not decompress)");
  }
  Cursor in(bytes);
  const uint32_t count = in.Scalar<uint32_t>();
  // Every event takes at least 8 bytes: a count beyond that is damage.
  if (in.cut() || count > in.left() / 8) {
    return absl::DataLossError("the embedded event schema is damaged (event count)");
  }
  std::vector<EventInfo> events;
  events.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    EventInfo e{};
    e.type = in.Scalar<uint16_t>();
    e.name = in.String();
    e.syscall = in.String();
    const uint16_t nparams = in.Scalar<uint16_t>();
    for (uint16_t k = 0; k < nparams && !in.cut(); ++k) {
      ParamInfo p{};
      p.name = in.String();
      p.type = TypeNamed(in.String());
      p.source = static_cast<kestrel_param_source>(in.Scalar<uint8_t>());
      p.flag_set = FlagSetNamed(in.String());
      e.params.push_back(p);
    }
    if (in.cut()) {
      return absl::DataLossError(
          absl::StrFormat("the embedded event schema is cut short in event %u of %u", i, count));
    }
    events.push_back(std::move(e));
  }
  return SchemaTable::Copy(events, version);
}

}  // namespace kestrel::engine::capture_file
