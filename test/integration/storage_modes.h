// The two settings storage modes (README, "Settings storage modes"): every
// test of settings, toggles and pinned control runs once in each.
#ifndef KESTREL_TEST_INTEGRATION_STORAGE_MODES_H_
#define KESTREL_TEST_INTEGRATION_STORAGE_MODES_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "libpman.h"

namespace kestrel::testing {

inline constexpr uint32_t kStorageModes[] = {PMAN_SETTINGS_STORAGE_BSS,
                                             PMAN_SETTINGS_STORAGE_ARRAY};

inline std::string StorageModeName(const ::testing::TestParamInfo<uint32_t>& info) {
  return info.param == PMAN_SETTINGS_STORAGE_ARRAY ? "Array" : "Bss";
}

}  // namespace kestrel::testing

#define KESTREL_INSTANTIATE_STORAGE_MODES(suite)                                                   \
  INSTANTIATE_TEST_SUITE_P(Storage, suite, ::testing::ValuesIn(::kestrel::testing::kStorageModes), \
                           ::kestrel::testing::StorageModeName)

#endif  // KESTREL_TEST_INTEGRATION_STORAGE_MODES_H_
