// libpman removes a recorder's pins only when it can prove them its own:
// what pman_recorder_stop and pman_recorder_open return for a folder of
// ordinary maps, and for a half-made recorder.
#include <bpf/bpf.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "libpman_recorder.h"
#include "probe_session.h"
#include "recorder_fixture.h"

namespace kestrel::testing {
namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

// Pins an ordinary array map at `path`; the pin holds it, the fd is closed.
void PinArray(const std::string& path, uint32_t value_size) {
  const int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "foreign", 4, value_size, 1, nullptr);
  ASSERT_GE(fd, 0) << strerror(errno);
  ASSERT_EQ(bpf_obj_pin(fd, path.c_str()), 0) << path << ": " << strerror(errno);
  close(fd);
}

TEST(RecorderOwnershipTest, StopAndOpenRefuseOrdinaryMapsWithTheRecordersNames) {
  KESTREL_REQUIRE_BPF_PRIVILEGES();
  ScopedRecorderPins pins("foreign");
  ASSERT_EQ(mkdir(pins.root().c_str(), 0700), 0);
  ASSERT_EQ(mkdir(pins.dir().c_str(), 0700), 0);
  for (const char* name : {"info", "slots", "heads"}) PinArray(pins.dir() + "/" + name, 56);

  const pman_recorder_options o = pins.Options();
  EXPECT_EQ(pman_recorder_stop(&o), -EBADFD);
  pman_recorder* r = nullptr;
  EXPECT_EQ(pman_recorder_open(&o, &r), -EBADFD);
  EXPECT_EQ(r, nullptr);
  EXPECT_EQ(pman_recorder_start(&o), -EBADFD);
  for (const char* name : {"info", "slots", "heads"}) {
    EXPECT_TRUE(Exists(pins.dir() + "/" + name)) << name;
    ASSERT_EQ(unlink((pins.dir() + "/" + name).c_str()), 0);
  }
  // Now an empty folder: the start of a recorder that never pinned anything.
  EXPECT_EQ(pman_recorder_open(&o, &r), -EBADFD);
  EXPECT_EQ(pman_recorder_stop(&o), 1);
  EXPECT_FALSE(Exists(pins.dir()));
}

}  // namespace
}  // namespace kestrel::testing
