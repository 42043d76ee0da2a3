#include "options_compat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace kestrel::pman {
namespace {

// pman_init's result for the defaults changed by `edit`; a refused init
// must leave no handle behind.
template <typename Edit>
int InitWith(Edit edit) {
  pman_options o;
  pman_default_options(&o);
  edit(o);
  pman_handle* h = nullptr;
  const int rc = pman_init(&o, &h);
  EXPECT_EQ(rc != 0, h == nullptr);
  pman_close(h);
  return rc;
}

TEST(OptionsCompatTest, AnOlderCallerGetsDefaultsForFieldsItDoesNotKnow) {
  // The caller's struct ends where ABI 1 first ended; the bytes after it in
  // this buffer are poison that must not be read.
  std::vector<uint8_t> memory(sizeof(pman_options), 0xAB);
  pman_options v1{};
  v1.struct_size = kOptionsV1Size;
  v1.cpus_per_buffer = 1;
  v1.buffer_bytes = 1 << 20;
  std::memcpy(memory.data(), &v1, kOptionsV1Size);
  const pman_options full = CompleteOptions(reinterpret_cast<const pman_options*>(memory.data()));
  EXPECT_EQ(full.struct_size, sizeof(pman_options));
  EXPECT_EQ(full.cpus_per_buffer, 1u);
  EXPECT_EQ(full.buffer_bytes, 1u << 20);
  EXPECT_EQ(full.flags, 0u);
  EXPECT_EQ(full.settings_storage, static_cast<uint32_t>(PMAN_SETTINGS_STORAGE_DEFAULT));
}

TEST(OptionsCompatTest, AnUnknownSettingsStorageIsRejectedByInit) {
  EXPECT_EQ(InitWith([](pman_options& o) { o.settings_storage = 3; }), -EINVAL);
  EXPECT_EQ(InitWith([](pman_options& o) { o.settings_storage = PMAN_SETTINGS_STORAGE_ARRAY; }), 0);
}

TEST(OptionsCompatTest, DefaultsAreAutoTopologyAndTheDefaultSize) {
  pman_options o;
  pman_default_options(&o);
  EXPECT_EQ(o.cpus_per_buffer, PMAN_CPUS_PER_BUFFER_AUTO);
  EXPECT_EQ(o.buffer_bytes, PMAN_DEFAULT_BUFFER_BYTES);
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.settings_storage, static_cast<uint32_t>(PMAN_SETTINGS_STORAGE_DEFAULT));
}

TEST(OptionsCompatTest, ATooSmallStructIsRejectedByInit) {
  EXPECT_EQ(InitWith([](pman_options& o) { o.struct_size = 4; }), -EINVAL);
}

}  // namespace
}  // namespace kestrel::pman
