#include "settings_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace kestrel::pman {
namespace {

TEST(SettingsStoreTest, PublishedSettingsReadBack) {
  kestrel_settings_store store{};
  kestrel_capture_settings s{};
  s.snaplen = 512;
  s.own_tgid = 77;
  s.drop_failed = 1;
  PublishSettings(&store, s);
  const kestrel_capture_settings got = ReadSettings(&store);
  EXPECT_EQ(got.snaplen, 512u);
  EXPECT_EQ(got.own_tgid, 77u);
  EXPECT_EQ(got.drop_failed, 1u);
  EXPECT_EQ(store.active, 1u);
  EXPECT_EQ(store.slots[1].seq % 2, 0u);
}

// The probe copies the target lists only when the flag says one is set, so
// the flag follows the lists whatever the caller put in it.
TEST(SettingsStoreTest, TargetListsFlagIsDerivedFromTheLists) {
  kestrel_settings_store store{};
  kestrel_capture_settings s{};
  s.target_tgid = 42;      // not a list: the probe always reads it
  s.target_lists_set = 1;  // a caller's value is not trusted
  PublishSettings(&store, s);
  EXPECT_EQ(ReadSettings(&store).target_lists_set, 0u);

  s.target_lists_set = 0;
  s.target_tgids[KESTREL_MAX_TARGET_TGIDS - 1] = 7;
  PublishSettings(&store, s);
  EXPECT_EQ(ReadSettings(&store).target_lists_set, 1u);

  s.target_tgids[KESTREL_MAX_TARGET_TGIDS - 1] = 0;
  s.target_cgroups[KESTREL_MAX_TARGET_CGROUPS - 1] = 1234;
  PublishSettings(&store, s);
  EXPECT_EQ(ReadSettings(&store).target_lists_set, 1u);
}

// A reader racing a writer that keeps two fields equal never sees them differ.
TEST(SettingsStoreTest, ConcurrentReaderNeverSeesATornStruct) {
  kestrel_settings_store store{};
  std::atomic<bool> done{false};
  std::atomic<uint64_t> torn{0}, reads{0};
  std::thread reader([&] {
    while (!done.load(std::memory_order_relaxed)) {
      const kestrel_capture_settings s = ReadSettings(&store);
      if (s.snaplen != s.target_tgid || s.own_tgid != s.target_tgid) torn++;
      reads++;
    }
  });
  // Keep writing until the reader has raced us many times, however the two
  // threads get scheduled.
  for (uint32_t i = 1; i <= 500000 || reads.load() < 200000; ++i) {
    kestrel_capture_settings s{};
    s.snaplen = s.target_tgid = s.own_tgid = i;
    PublishSettings(&store, s);
  }
  done = true;
  reader.join();
  EXPECT_EQ(torn.load(), 0u);
}

}  // namespace
}  // namespace kestrel::pman
