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

// Paths already normal are copied as they are; the others, whatever the
// spot of their "//", "." or "..", are rebuilt.
TEST(PathResolutionTest, NormalAndOtherAbsolutePaths) {
  for (const char* normal :
       {"/", "/dev/null", "/.hidden/x", "/a/..b", "/a/.b.", "/a/b..", "/..."}) {
    EXPECT_EQ(ResolvePath("/base", normal), normal) << normal;
  }
  EXPECT_EQ(ResolvePath("", "//a"), "/a");
  EXPECT_EQ(ResolvePath("", "/a//b"), "/a/b");
  EXPECT_EQ(ResolvePath("", "/a/./b"), "/a/b");
  EXPECT_EQ(ResolvePath("", "/a/../b"), "/b");
  EXPECT_EQ(ResolvePath("", "/a/"), "/a");
  EXPECT_EQ(ResolvePath("", "/a/."), "/a");
  EXPECT_EQ(ResolvePath("", "/a/.."), "/");
  EXPECT_EQ(ResolvePath("", "/."), "/");
  EXPECT_EQ(ResolvePath("", "/.."), "/");
}

TEST(PathResolutionTest, ResolvingIntoABufferReplacesItsText) {
  std::string out = "a much longer leftover text than any path here";
  ResolvePathInto(out, "/home/u", "notes.txt");
  EXPECT_EQ(out, "/home/u/notes.txt");
  ResolvePathInto(out, "/home/u", "/etc/passwd");
  EXPECT_EQ(out, "/etc/passwd");
  ResolvePathInto(out, "", "x");
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace kestrel::engine
