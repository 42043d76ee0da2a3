#include "param_text.h"

#include "engine/decode/falco_event_table.h"

#include <fcntl.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/decode/flag_sets.h"

namespace kestrel::engine::fields {

std::string_view ParamBytes(const DecodedEvent& event, int index) {
  const std::span<const uint8_t> raw = event.record().param(static_cast<uint32_t>(index));
  std::string_view s(reinterpret_cast<const char*>(raw.data()), raw.size());
  const ParamInfo& p = event.info().params[index];
  if (p.type != KPT_BYTEBUF && !s.empty() && s.back() == '\0') s.remove_suffix(1);
  return s;
}

bool IsNumericParam(const DecodedEvent& event, int index) {
  return kestrel_param_fixed_size(event.info().params[index].type) != 0;
}

std::optional<int64_t> ParamNumber(const DecodedEvent& event, int index) {
  return DecodeInteger(event.info().params[index].type,
                       event.record().param(static_cast<uint32_t>(index)));
}

void AppendParamText(std::string& out, const DecodedEvent& event, int index) {
  const ParamInfo& p = event.info().params[index];
  const std::span<const uint8_t> raw = event.record().param(static_cast<uint32_t>(index));
  switch (p.type) {
    case KPT_PATH:
    case KPT_CHARBUF:
    case KPT_BYTEBUF:
      out.append(ParamBytes(event, index));
      return;
    case KPT_CHARBUF_ARRAY: {
      // NUL-separated items, shown space separated as Falco's lists are.
      std::string_view s(reinterpret_cast<const char*>(raw.data()), raw.size());
      if (!s.empty() && s.back() == '\0') s.remove_suffix(1);
      for (char c : s) out.push_back(c == '\0' ? ' ' : c);
      return;
    }
    case KPT_SOCKADDR:
      if (std::optional<SocketAddress> a = DecodeSocketAddress(raw)) out.append(a->ToString());
      return;
    case KPT_SOCKTUPLE:
      if (auto t = event.Tuple(p.name)) {
        absl::StrAppend(&out, t->first.ToString(), "->", t->second.ToString());
      }
      return;
    default:
      break;
  }
  const std::optional<int64_t> n = DecodeInteger(p.type, raw);
  if (!n) return;
  switch (p.type) {
    case KPT_FLAGS32:
      out.append(FormatFlags(p.flag_set, static_cast<uint64_t>(*n)));
      return;
    case KPT_MODE:
      out.append(FormatMode(p.flag_set, static_cast<uint64_t>(*n)));
      return;
    case KPT_FD:
      if (p.source != KPS_RET && *n == AT_FDCWD) {
        out.append("AT_FDCWD");
        return;
      }
      [[fallthrough]];
    case KPT_ERRNO:
      absl::StrAppend(&out, *n);
      if (p.source == KPS_RET && *n < 0 && *n >= -4095) {
        if (const char* e = strerrorname_np(static_cast<int>(-*n)))
          absl::StrAppend(&out, "(", e, ")");
      }
      return;
    default:
      absl::StrAppend(&out, *n);
      return;
  }
}

void AppendAllParams(std::string& out, const DecodedEvent& event,
                     absl::FunctionRef<bool(std::string& out, int index)> state_text) {
  const std::vector<ParamInfo>& params = event.info().params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out.push_back(' ');
    out.append(params[i].name).push_back('=');
    if (!state_text(out, static_cast<int>(i))) AppendParamText(out, event, static_cast<int>(i));
  }
}

int ParamAtPosition(const EventInfo& info, uint32_t n) {
  const FalcoEvent* falco = info.type == KESTREL_EVT_PROCESS_EXIT ? &FalcoProcessExit()
                            : info.syscall.empty()                ? nullptr
                                                                  : FindFalcoEvent(info.syscall);
  if (falco == nullptr) return n < info.params.size() ? static_cast<int>(n) : -1;
  // A parameter Falco has and Kestrel does not record has no value.
  return n < falco->params.size() ? info.ParamIndex(falco->params[n]) : -1;
}

}  // namespace kestrel::engine::fields
