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
  absl::StatusOr<NewHttpChannelFn> make =
      Entry<NewHttpChannelFn>("http output", kNewHttpChannelSymbol);
  if (!make.ok()) return make.status();
  ChannelOrError channel = absl::InternalError("http output: the module made no channel");
  (*make)(&options, &channel);
  return channel;
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
  absl::StatusOr<CheckKafkaConfFn> check =
      Entry<CheckKafkaConfFn>("kafka output", kCheckKafkaConfSymbol);
  if (!check.ok()) return check.status();
  absl::Status status = absl::InternalError("kafka output: the module checked nothing");
  (*check)(&options, &status);
  return status;
}

absl::StatusOr<std::unique_ptr<AlertChannel>> MakeKafkaChannel(const KafkaOptions& options) {
  absl::StatusOr<NewKafkaChannelFn> make =
      Entry<NewKafkaChannelFn>("kafka output", kNewKafkaChannelSymbol);
  if (!make.ok()) return make.status();
  ChannelOrError channel = absl::InternalError("kafka output: the module made no channel");
  (*make)(&options, &channel);
  return channel;
}

}  // namespace kestrel::agent::outputs
