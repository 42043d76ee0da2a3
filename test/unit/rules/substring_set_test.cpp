// SubstringSet against std::string_view::find, pattern by pattern.
#include "engine/rules/substring_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace kestrel::engine::rules {
namespace {

std::vector<uint32_t> Found(const SubstringSet& set, std::string_view text) {
  std::vector<uint8_t> seen;
  std::vector<uint32_t> ids;
  set.Find(text, seen, [&](uint32_t id) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(SubstringSetTest, OverlappingAndNestedPatternsAreEachFoundOnce) {
  SubstringSet set;
  EXPECT_EQ(set.Add("he"), 0u);
  EXPECT_EQ(set.Add("she"), 1u);
  EXPECT_EQ(set.Add("his"), 2u);
  EXPECT_EQ(set.Add("hers"), 3u);
  EXPECT_EQ(set.Add("she"), 1u);  // the same pattern, the same id
  set.Build();
  EXPECT_EQ(set.size(), 4u);
  EXPECT_EQ(Found(set, "ushers"), (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(Found(set, "hishe hehe"), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(Found(set, ""), std::vector<uint32_t>{});
  EXPECT_EQ(Found(set, "xyz"), std::vector<uint32_t>{});
}

TEST(SubstringSetTest, AgreesWithFindOnRandomTexts) {
  std::mt19937 rng(7);
  // A small alphabet with bytes above 127, so patterns overlap often.
  const std::string alphabet = "ab/\xff\x80.";
  auto random_string = [&](size_t max) {
    std::string s(1 + rng() % max, ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    return s;
  };
  SubstringSet set;
  std::vector<std::string> patterns;
  for (int i = 0; i < 200; ++i) {
    std::string p = random_string(6);
    if (std::find(patterns.begin(), patterns.end(), p) != patterns.end()) continue;
    ASSERT_EQ(set.Add(p), patterns.size());
    patterns.push_back(p);
  }
  set.Build();
  for (int t = 0; t < 2000; ++t) {
    const std::string text = random_string(40);
    std::vector<uint32_t> expected;
    for (uint32_t id = 0; id < patterns.size(); ++id) {
      if (std::string_view(text).find(patterns[id]) != std::string_view::npos) {
        expected.push_back(id);
      }
    }
    ASSERT_EQ(Found(set, text), expected) << text;
  }
}

}  // namespace
}  // namespace kestrel::engine::rules
