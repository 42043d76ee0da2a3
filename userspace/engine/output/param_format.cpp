#include "param_format.h"

#include <fcntl.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/decode/flag_sets.h"
#include "escape.h"

namespace kestrel::engine {
namespace {

// Inet addresses print bare in text (tuple=127.0.0.1:40000->127.0.0.1:80);
// unix paths may hold anything, so they stay quoted like every path.
void AppendAddress(std::string& out, uint8_t family, std::string_view text, OutputStyle style) {
  if (style == OutputStyle::kJson || family == KESTREL_AF_UNIX) {
    AppendQuoted(out, text, style);
  } else {
    AppendTextEscaped(out, text);
  }
}

void AppendNone(std::string& out, OutputStyle style) {
  out.append(style == OutputStyle::kJson ? "null" : "<none>");
}

void AppendParam(std::string& out, const DecodedEvent& event, const ParamInfo& p,
                 OutputStyle style) {
  const bool json = style == OutputStyle::kJson;
  const std::optional<int64_t> n = DecodeInteger(p.type, event.Raw(p.name));
  switch (p.type) {
    case KPT_ERRNO:
    case KPT_FD:
      if (!n) {
        AppendNone(out, style);
      } else if (!json && p.type == KPT_FD && p.source != KPS_RET && *n == AT_FDCWD) {
        out.append("AT_FDCWD");
      } else {
        absl::StrAppend(&out, *n);
        // Only a return value carries an errno; a negative fd argument
        // (AT_FDCWD, -1) is just a number.
        if (!json && p.source == KPS_RET && *n < 0 && *n >= -4095) {
          if (const char* e = strerrorname_np(static_cast<int>(-*n))) {
            absl::StrAppend(&out, "(", e, ")");
          }
        }
      }
      return;
    case KPT_FLAGS32:
      if (!n) {
        AppendNone(out, style);
      } else if (json) {
        AppendJsonString(out, FormatFlags(p.flag_set, static_cast<uint64_t>(*n)));
      } else {
        out.append(FormatFlags(p.flag_set, static_cast<uint64_t>(*n)));
      }
      return;
    case KPT_MODE:
      if (!n) {
        AppendNone(out, style);
      } else if (json) {
        AppendJsonString(out, FormatMode(p.flag_set, static_cast<uint64_t>(*n)));
      } else {
        out.append(FormatMode(p.flag_set, static_cast<uint64_t>(*n)));
      }
      return;
    case KPT_PATH:
    case KPT_CHARBUF:
    case KPT_BYTEBUF:
      AppendQuoted(out, event.String(p.name).value_or(""), style);
      return;
    case KPT_CHARBUF_ARRAY: {
      out.push_back('[');
      const std::vector<std::string> items =
          event.StringList(p.name).value_or(std::vector<std::string>());
      for (size_t k = 0; k < items.size(); ++k) {
        if (k) out.append(json ? "," : ", ");
        AppendQuoted(out, items[k], style);
      }
      out.push_back(']');
      return;
    }
    case KPT_SOCKADDR: {
      const std::optional<SocketAddress> a = event.Address(p.name);
      if (!a) {
        AppendNone(out, style);
      } else {
        AppendAddress(out, a->family, a->ToString(), style);
      }
      return;
    }
    case KPT_SOCKTUPLE: {
      const std::optional<std::pair<SocketAddress, SocketAddress>> t = event.Tuple(p.name);
      if (!t) {
        AppendNone(out, style);
      } else {
        AppendAddress(out, t->first.family,
                      absl::StrCat(t->first.ToString(), "->", t->second.ToString()), style);
      }
      return;
    }
    case KPT_FDLIST: {
      // [3:POLLIN, 4:0]; in JSON [{"fd":3,"events":"POLLIN"}, ...].
      const std::optional<std::vector<PolledFd>> fds = event.FdList(p.name);
      if (!fds) {
        AppendNone(out, style);
        return;
      }
      out.push_back('[');
      for (size_t k = 0; k < fds->size(); ++k) {
        const PolledFd& f = (*fds)[k];
        const std::string events = FormatFlags(p.flag_set, static_cast<uint16_t>(f.events));
        if (k) out.append(json ? "," : ", ");
        if (json) {
          absl::StrAppend(&out, "{\"fd\":", f.fd, ",\"events\":");
          AppendJsonString(out, events);
          out.push_back('}');
        } else {
          absl::StrAppend(&out, f.fd, ":", events);
        }
      }
      out.push_back(']');
      return;
    }
    default:
      if (!n) {
        AppendNone(out, style);
      } else {
        absl::StrAppend(&out, *n);
      }
      return;
  }
}

}  // namespace

void AppendParams(std::string& out, const DecodedEvent& event, OutputStyle style) {
  const bool json = style == OutputStyle::kJson;
  const std::vector<ParamInfo>& params = event.info().params;
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out.append(json ? "," : " ");
    if (json) {
      AppendJsonString(out, params[i].name);
      out.push_back(':');
    } else {
      out.append(params[i].name).push_back('=');
    }
    AppendParam(out, event, params[i], style);
  }
}

}  // namespace kestrel::engine
