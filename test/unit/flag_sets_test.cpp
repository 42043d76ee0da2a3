#include "engine/decode/flag_sets.h"

#include <fcntl.h>
#include <gtest/gtest.h>

namespace kestrel::engine {
namespace {

TEST(FlagSetsTest, OpenFlagsNameTheAccessModeAndBits) {
  EXPECT_EQ(FormatFlags(KFS_OPEN_FLAGS, O_RDONLY), "O_RDONLY");
  EXPECT_EQ(FormatFlags(KFS_OPEN_FLAGS, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC),
            "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC");
  EXPECT_EQ(FormatFlags(KFS_OPEN_FLAGS, O_RDWR | 0x40000000), "O_RDWR|0x40000000");
}

TEST(FlagSetsTest, BitSetsAndUnknownSets) {
  EXPECT_EQ(FormatFlags(KFS_AT_FLAGS, AT_REMOVEDIR), "AT_REMOVEDIR");
  EXPECT_EQ(FormatFlags(KFS_AT_FLAGS, 0), "0");
  EXPECT_EQ(FormatFlags(KFS_NONE, 0x10), "0x10");
}

}  // namespace
}  // namespace kestrel::engine
