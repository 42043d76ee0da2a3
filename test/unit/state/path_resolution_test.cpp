// Lexical path resolution, as fd.name and proc.cwd need it.
#include "engine/state/path_resolution.h"

#include <gtest/gtest.h>

namespace kestrel::engine {
namespace {

TEST(PathResolutionTest, RelativePathsJoinTheBase) {
  EXPECT_EQ(ResolvePath("/home/u", "notes.txt"), "/home/u/notes.txt");
  EXPECT_EQ(ResolvePath("/", "etc/passwd"), "/etc/passwd");
  EXPECT_EQ(ResolvePath("/home/u/", "./a//b/"), "/home/u/a/b");
}

TEST(PathResolutionTest, DotDotNeverClimbsAboveRoot) {
  EXPECT_EQ(ResolvePath("/home/u", "../v/x"), "/home/v/x");
  EXPECT_EQ(ResolvePath("/", "../../etc"), "/etc");
  EXPECT_EQ(ResolvePath("/a", ".."), "/");
}

TEST(PathResolutionTest, AbsolutePathsIgnoreTheBase) {
  EXPECT_EQ(ResolvePath("/home/u", "/etc/./shadow"), "/etc/shadow");
  EXPECT_EQ(ResolvePath("", "/tmp"), "/tmp");
}

TEST(PathResolutionTest, ARelativePathWithoutABaseIsUnresolved) {
  EXPECT_EQ(ResolvePath("", "x"), "");
  EXPECT_EQ(ResolvePath("relative", "x"), "");
}

}  // namespace
}  // namespace kestrel::engine
