#include "kestrel/common/ring_options.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "libpman.h"
#include "verb_parse.h"

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
  EXPECT_EQ(*ParseBufferBytes("2G"), 2ull << 30);
}

TEST(RingOptionsTest, BadBufferSizesAreErrors) {
  EXPECT_FALSE(ParseBufferBytes("").ok());
  EXPECT_FALSE(ParseBufferBytes("M").ok());
  EXPECT_FALSE(ParseBufferBytes("0").ok());
  EXPECT_FALSE(ParseBufferBytes("huge").ok());
  EXPECT_FALSE(ParseBufferBytes("-4M").ok());
  EXPECT_FALSE(ParseBufferBytes("+4M").ok());
  EXPECT_FALSE(ParseBufferBytes("99999999999999999999G").ok());
}

TEST(RingOptionsTest, SizesNoRingCanTakeAreErrors) {
  const long page = sysconf(_SC_PAGESIZE);
  EXPECT_EQ(ParseBufferBytes("3").status().message(),
            "\"3\" is not a ring size: use a power of two from one page (" + std::to_string(page) +
                ") to 2G");
  EXPECT_FALSE(ParseBufferBytes(std::to_string(page / 2)).ok());
  EXPECT_FALSE(ParseBufferBytes("3M").ok());
  EXPECT_FALSE(ParseBufferBytes("4G").ok());
}

TEST(RingOptionsTest, CpusPerBuffer) {
  EXPECT_EQ(*ParseCpusPerBuffer("auto"), PMAN_CPUS_PER_BUFFER_AUTO);
  EXPECT_EQ(*ParseCpusPerBuffer("0"), 0u);
  EXPECT_EQ(*ParseCpusPerBuffer("4"), 4u);
  EXPECT_FALSE(ParseCpusPerBuffer("-1").ok());
  EXPECT_FALSE(ParseCpusPerBuffer("4294967295").ok());
  EXPECT_FALSE(ParseCpusPerBuffer("x").ok());
}

struct RingFlags {
  uint64_t bytes = 0;
  uint32_t cpus = 0;
  bool online_only = false;
};

void DefineRingFlags(CLI::App& app, RingFlags& flags) {
  BufferBytesOption(app, &flags.bytes);
  CpusPerBufferOption(app, &flags.cpus);
  OnlineCpusOnlyOption(app, &flags.online_only);
}

absl::StatusOr<RingFlags> ParseRingFlags(std::vector<std::string> args) {
  return ParseVerbArgs<RingFlags>(DefineRingFlags, args);
}

TEST(RingOptionsTest, OptionsStoreWhatTheParsersReturn) {
  absl::StatusOr<RingFlags> flags = ParseRingFlags(
      {"--buffer-bytes", "small", "--cpus-per-buffer", "auto", "--online-cpus-only"});
  ASSERT_TRUE(flags.ok()) << flags.status();
  EXPECT_EQ(flags->bytes, PMAN_BUFFER_BYTES_SMALL);
  EXPECT_EQ(flags->cpus, PMAN_CPUS_PER_BUFFER_AUTO);
  EXPECT_TRUE(flags->online_only);
  EXPECT_EQ(ParseRingFlags({"--buffer-bytes", "4M"})->bytes, 4u << 20);
  EXPECT_EQ(ParseRingFlags({"--cpus-per-buffer", "1"})->cpus, 1u);
  EXPECT_EQ(
      ParseRingFlags({"--buffer-bytes", "huge"}).status().message(),
      "--buffer-bytes: \"huge\" is not a size: use small, default, large, or bytes such as 4M");
}

TEST(RingOptionsTest, MoreCpusPerBufferThanTheMachineCanHaveIsRefused) {
  const uint32_t possible = PossibleCpuCount();
  ASSERT_GT(possible, 0u);
  EXPECT_TRUE(ParseRingFlags({"--cpus-per-buffer", std::to_string(possible)}).ok());
  EXPECT_EQ(ParseRingFlags({"--cpus-per-buffer", std::to_string(possible + 1)}).status().message(),
            "--cpus-per-buffer: \"" + std::to_string(possible + 1) + "\" is more than the " +
                std::to_string(possible) + " possible CPUs of this machine");
}

}  // namespace
}  // namespace kestrel::cli
