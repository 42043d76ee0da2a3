#include "bench/generated_rules.h"

#include <array>

#include "absl/strings/str_format.h"

namespace kestrel::bench {
namespace {

// Syscalls the bench's load never makes (stored_stream.cpp).
constexpr std::array<const char*, 16> kAbsentTypes = {
    "mkdir",  "mkdirat",  "rmdir", "unlink",  "unlinkat", "rename",   "renameat", "renameat2",
    "fchmod", "fchmodat", "setns", "unshare", "tgkill",   "mprotect", "flock",    "quotactl",
};

}  // namespace

std::string GeneratedRulesYaml(int count, GeneratedRuleKind kind) {
  std::string yaml = "- required_engine_version: 0.57.0\n";
  for (int i = 0; i < count; ++i) {
    if (kind == GeneratedRuleKind::kOpenatContains) {
      absl::StrAppendFormat(&yaml,
                            "- rule: Generated contains %04d\n"
                            "  desc: a generated rule the bench's stream never matches\n"
                            "  condition: evt.type = openat and fd.name contains /gen-%04d/\n"
                            "  output: generated %04d (file=%%fd.name)\n"
                            "  priority: WARNING\n"
                            "  tags: [generated]\n",
                            i, i, i);
      continue;
    }
    const char* type =
        kind == GeneratedRuleKind::kOpenat ? "openat" : kAbsentTypes[i % kAbsentTypes.size()];
    absl::StrAppendFormat(&yaml,
                          "- rule: Generated %s %04d\n"
                          "  desc: a generated rule the bench's stream never matches\n"
                          "  condition: evt.type = %s and proc.name = gen_proc_%04d and fd.name "
                          "startswith /gen/%04d/\n"
                          "  output: generated %04d (proc=%%proc.name file=%%fd.name)\n"
                          "  priority: WARNING\n"
                          "  tags: [generated]\n",
                          type, i, type, i, i, i);
  }
  return yaml;
}

}  // namespace kestrel::bench
