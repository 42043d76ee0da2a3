#include "ring_options.h"

#include <gtest/gtest.h>

#include "libpman.h"

namespace kestrel::cli {
namespace {

TEST(RingOptionsTest, BufferPresetsAndSuffixes) {
  EXPECT_EQ(*ParseBufferBytes("small"), PMAN_BUFFER_BYTES_SMALL);
  EXPECT_EQ(*ParseBufferBytes("default"), PMAN_DEFAULT_BUFFER_BYTES);
  EXPECT_EQ(*ParseBufferBytes("large"), PMAN_BUFFER_BYTES_LARGE);
  EXPECT_EQ(*ParseBufferBytes("65536"), 65536u);
  EXPECT_EQ(*ParseBufferBytes("64K"), 65536u);
  EXPECT_EQ(*ParseBufferBytes("4M"), 4u << 20);
  EXPECT_EQ(*ParseBufferBytes("1G"), 1u << 30);
}

TEST(RingOptionsTest, BadBufferSizesAreErrors) {
  EXPECT_FALSE(ParseBufferBytes("").ok());
  EXPECT_FALSE(ParseBufferBytes("M").ok());
  EXPECT_FALSE(ParseBufferBytes("0").ok());
  EXPECT_FALSE(ParseBufferBytes("huge").ok());
  EXPECT_FALSE(ParseBufferBytes("-4M").ok());
  EXPECT_FALSE(ParseBufferBytes("99999999999999999999G").ok());
}

TEST(RingOptionsTest, CpusPerBuffer) {
  EXPECT_EQ(*ParseCpusPerBuffer("auto"), PMAN_CPUS_PER_BUFFER_AUTO);
  EXPECT_EQ(*ParseCpusPerBuffer("0"), 0u);
  EXPECT_EQ(*ParseCpusPerBuffer("4"), 4u);
  EXPECT_FALSE(ParseCpusPerBuffer("-1").ok());
  EXPECT_FALSE(ParseCpusPerBuffer("4294967295").ok());
  EXPECT_FALSE(ParseCpusPerBuffer("x").ok());
}

}  // namespace
}  // namespace kestrel::cli
