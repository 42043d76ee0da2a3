// channels.h's network factories: checks that need no library here, the
// channels themselves from kestrel_network_outputs.so, loaded on first use.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "agent/modules/module_loader.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"
#include "agent/outputs/network_channels_module.h"

namespace kestrel::agent::outputs {
namespace {

template <typename Fn>
absl::StatusOr<Fn> Entry(const std::string& what, const char* symbol) {
  absl::StatusOr<void*> address = ModuleSymbol(what, kNetworkOutputsModuleFile, symbol);
  if (!address.ok()) return address.status();
  return reinterpret_cast<Fn>(*address);
}

// The entry point `symbol` on `arg`, its answer (a Status or StatusOr)
// through its last argument.
template <typename Fn, typename Result, typename Arg>
Result Ask(const std::string& what, const char* symbol, const Arg& arg) {
  absl::StatusOr<Fn> entry = Entry<Fn>(what, symbol);
  if (!entry.ok()) return entry.status();
  Result answer = absl::InternalError(absl::StrCat(what, ": the module gave no answer"));
  (*entry)(&arg, &answer);
  return answer;
}

}  // namespace

absl::Status CheckHttpUrl(const std::string& url) {
  const std::string lower = absl::AsciiStrToLower(url.substr(0, 8));
  if (lower.starts_with("http://") || lower.starts_with("https://")) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("http output: \"", absl::CHexEscape(url),
                                                 "\" is not an http:// or https:// URL"));
}

absl::StatusOr<std::unique_ptr<AlertChannel>> MakeHttpChannel(const HttpOptions& options) {
  if (options.url.empty()) return absl::InvalidArgumentError("http output: no url");
  if (absl::Status s = CheckHttpUrl(options.url); !s.ok()) return s;
  return Ask<NewHttpChannelFn, ChannelOrError>("http output", kNewHttpChannelSymbol, options);
}

// Only a Kafka channel fails with a Kafka error, so the module is loaded.
std::string KafkaErrorName(int err) {
  absl::StatusOr<KafkaErrorNameFn> name =
      Entry<KafkaErrorNameFn>("kafka output", kKafkaErrorNameSymbol);
  if (!name.ok()) return absl::StrCat("error ", err);
  std::string out;
  (*name)(err, &out);
  return out;
}

absl::Status CheckKafkaOptions(const KafkaOptions& options) {
  return Ask<CheckKafkaConfFn, absl::Status>("kafka output", kCheckKafkaConfSymbol, options);
}

absl::StatusOr<std::unique_ptr<AlertChannel>> MakeKafkaChannel(const KafkaOptions& options) {
  return Ask<NewKafkaChannelFn, ChannelOrError>("kafka output", kNewKafkaChannelSymbol, options);
}

}  // namespace kestrel::agent::outputs
