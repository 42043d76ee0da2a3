// A reload compiles rules on its own thread while the consumer evaluates the
// rules in force: resolving new fields must never move or change the slots
// the running rules read. Built into the TSan binary too (test/tsan).
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/fields/field_registry.h"

namespace kestrel::engine::fields {
namespace {

filter::FieldRef FieldNamed(std::string name, std::optional<std::string> index = std::nullopt) {
  filter::FieldRef ref;
  ref.name = std::move(name);
  ref.index = std::move(index);
  return ref;
}

TEST(FieldRegistryThreadsTest, SlotsInUseStayPutWhileAnotherThreadAddsMany) {
  FieldRegistry registry;
  // The running rules' fields: a parameter by name and an environment
  // variable, resolved before the reload starts.
  absl::StatusOr<filter::FieldSpec> param = registry.Resolve(FieldNamed("evt.arg.fd"));
  absl::StatusOr<filter::FieldSpec> env = registry.Resolve(FieldNamed("proc.env", "HOME"));
  ASSERT_TRUE(param.ok() && env.ok());
  const uint32_t param_slot = FieldId::Unpack(param->id).arg;
  const uint32_t env_slot = FieldId::Unpack(env->id).arg;
  std::vector<int> indexes;
  for (uint16_t type = 0; type < 512; ++type) {
    indexes.push_back(registry.ParamIndex(param_slot, type));
  }

  // Enough new names to allocate several more chunks of slots.
  constexpr int kNewNames = 2000;
  std::atomic<bool> done{false};
  std::thread reload([&] {
    for (int i = 0; i < kNewNames; ++i) {
      EXPECT_TRUE(registry.Resolve(FieldNamed("proc.env", absl::StrCat("VAR_", i))).ok());
      EXPECT_TRUE(registry.Resolve(FieldNamed("evt.arg", std::to_string(i % 200))).ok());
    }
    done = true;
  });
  size_t reads = 0;
  while (!done || reads == 0) {
    for (uint16_t type = 0; type < 512; ++type) {
      ASSERT_EQ(registry.ParamIndex(param_slot, type), indexes[type]);
    }
    ASSERT_EQ(registry.EnvName(env_slot), "HOME");
    ++reads;
  }
  reload.join();

  absl::StatusOr<filter::FieldSpec> last =
      registry.Resolve(FieldNamed("proc.env", absl::StrCat("VAR_", kNewNames - 1)));
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(registry.EnvName(FieldId::Unpack(last->id).arg), absl::StrCat("VAR_", kNewNames - 1));
}

TEST(FieldRegistryThreadsTest, TooManyVariableNamesIsAnErrorNamingTheField) {
  FieldRegistry registry;
  absl::Status last;
  for (uint32_t i = 0; i <= FieldId::kNoArg && last.ok(); ++i) {
    last = registry.Resolve(FieldNamed("proc.env", absl::StrCat("V", i))).status();
  }
  EXPECT_EQ(last.message(),
            absl::StrCat("field 'proc.env[V", FieldId::kNoArg, "]' too many variable names"));
}

}  // namespace
}  // namespace kestrel::engine::fields
