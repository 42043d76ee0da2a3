#include "agent/rules/support_report.h"

#include <bpf/libbpf.h>
#include <sys/utsname.h>

#include <system_error>

#include "absl/strings/str_cat.h"
#include "agent/config/json_writer.h"
#include "agent/config/sha256.h"
#include "engine/rules/input_file.h"
#include "engine/rules/ruleset.h"
#include "libpman.h"

namespace kestrel::agent {
namespace {

void RulesFile(JsonWriter& j, const std::string& name, const absl::StatusOr<std::string>& text) {
  j.Open('{');
  j.Field("name", name);
  if (text.ok()) {
    j.Field("size", static_cast<uint64_t>(text->size()));
    j.Field("sha256", Sha256Hex(*text));
  } else {
    j.Field("error", std::string(text.status().message()));
  }
  j.Close('}');
}

}  // namespace

std::string EngineVersion() {
  return absl::StrCat(engine::rules::kEngineVersionMajor, ".", engine::rules::kEngineVersionMinor,
                      ".", engine::rules::kEngineVersionPatch);
}

std::string VersionsDocument(std::string_view version) {
  JsonWriter j;
  j.Open('{');
  j.Field("kestrel_version", version);
  j.Field("engine_version", EngineVersion());
  j.Field("libbpf_version", absl::StrCat(libbpf_major_version(), ".", libbpf_minor_version()));
  j.Field("libpman_abi", static_cast<uint64_t>(pman_abi_version()));
  struct utsname u {};
  j.Field("kernel", uname(&u) == 0 ? std::string(u.release) : std::string());
  j.Field("machine", uname(&u) == 0 ? std::string(u.machine) : std::string());
  j.Close('}');
  return j.Take() + "\n";
}

std::string SupportDocument(std::string_view version, const RunConfig& config,
                            const RunRulesOptions& rules) {
  JsonWriter j;
  j.Open('{');
  j.Field("version", version);
  j.Key("engine_info");
  j.Open('{');
  j.Field("engine_version", EngineVersion());
  j.Field("libbpf_version", absl::StrCat(libbpf_major_version(), ".", libbpf_minor_version()));
  j.Field("libpman_abi", static_cast<uint64_t>(pman_abi_version()));
  j.Close('}');
  j.Key("system_info");
  j.Open('{');
  struct utsname u {};
  if (uname(&u) == 0) {
    j.Field("sysname", u.sysname);
    j.Field("nodename", u.nodename);
    j.Field("release", u.release);
    j.Field("version", u.version);
    j.Field("machine", u.machine);
  }
  j.Close('}');
  j.Key("config");
  // RunConfigJson is a whole object: written as the value as it is.
  j.Raw(RunConfigJson(config));
  j.Key("rules_files");
  j.Open('[');
  for (const std::string& path : rules.paths) {
    std::error_code ec;
    std::vector<std::string> files = engine::rules::RulesFilesOf(path, ec);
    if (ec) {
      RulesFile(
          j, path,
          absl::InvalidArgumentError(absl::StrCat("cannot list the directory: ", ec.message())));
    }
    for (const std::string& file : files) {
      RulesFile(j, file, engine::rules::ReadInputFile(file, rules.max_file_bytes));
    }
  }
  for (const engine::rules::Ruleset::Text& text : rules.texts) RulesFile(j, text.name, text.yaml);
  j.Close(']');
  j.Close('}');
  return j.Take() + "\n";
}

}  // namespace kestrel::agent
