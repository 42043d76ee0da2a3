// Decoding and printing of settings_changed and drop-marker records, built
// byte for byte as the probe writes them.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "engine/decode/control_records.h"
#include "engine/output/control_format.h"
#include "shared/capture_settings.h"
#include "shared/event_types.h"

namespace kestrel {
namespace {

template <typename Record>
std::vector<uint8_t> Bytes(const Record& r) {
  std::vector<uint8_t> b(sizeof(r));
  std::memcpy(b.data(), &r, sizeof(r));
  return b;
}

void Header(kestrel_record_header& h, uint32_t len, uint16_t type, uint8_t nparams) {
  h.ts_ns = 5'000'000'000;
  h.len = len;
  h.type = type;
  h.version = KESTREL_SCHEMA_VERSION;
  h.nparams = nparams;
  h.cpu = 1;
}

std::vector<uint8_t> SettingsChangedBytes(uint16_t what, uint64_t from, uint64_t to) {
  kestrel_settings_changed_record r{};
  Header(r.hdr, sizeof(r), KESTREL_EVT_SETTINGS_CHANGED, KESTREL_SETTINGS_CHANGED_NPARAMS);
  r.param_len[0] = 2;
  r.param_len[1] = r.param_len[2] = 8;
  r.what = what;
  r.old_generation = from;
  r.new_generation = to;
  return Bytes(r);
}

std::vector<uint8_t> SamplingMarkerBytes(uint16_t type, uint32_t ratio, uint64_t generation) {
  kestrel_sampling_marker_record r{};
  Header(r.hdr, sizeof(r), type, KESTREL_SAMPLING_MARKER_NPARAMS);
  r.param_len[0] = 4;
  r.param_len[1] = 8;
  r.sampling_ratio = ratio;
  r.generation = generation;
  return Bytes(r);
}

TEST(ControlRecordsTest, SettingsChangedDecodesAndPrints) {
  static_assert(sizeof(kestrel_settings_changed_record) == 56, "no padding in the record");
  const auto bytes =
      SettingsChangedBytes(KESTREL_CHANGED_SETTINGS | KESTREL_CHANGED_DROP_CLASSES, 4, 6);
  auto view = engine::RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status();
  auto c = engine::DecodeSettingsChanged(*view);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->old_generation, 4u);
  EXPECT_EQ(c->new_generation, 6u);
  EXPECT_EQ(engine::ChangedNames(c->what), "settings,drop_classes");
  EXPECT_EQ(engine::ChangedNames(0), "none");

  std::string line;
  ASSERT_TRUE(
      engine::FormatControlRecord(*view, engine::OutputStyle::kJson, 1'000'000'000, line).ok());
  EXPECT_EQ(line,
            "{\"ts\":6000000000,\"cpu\":1,\"event\":\"settings_changed\",\"what\":\"settings,"
            "drop_classes\",\"old_generation\":4,\"new_generation\":6}");
  ASSERT_TRUE(engine::FormatControlRecord(*view, engine::OutputStyle::kText, 0, line).ok());
  EXPECT_NE(line.find(" settings_changed generation 4 -> 6 (settings,drop_classes)"),
            std::string::npos)
      << line;
}

TEST(ControlRecordsTest, DropMarkersDecodeAndPrint) {
  static_assert(sizeof(kestrel_sampling_marker_record) == 48, "no padding in the record");
  for (uint16_t type : {KESTREL_EVT_DROP_START, KESTREL_EVT_DROP_STOP}) {
    const auto bytes = SamplingMarkerBytes(type, 10, 9);
    auto view = engine::RecordView::Parse(bytes.data(), bytes.size());
    ASSERT_TRUE(view.ok()) << view.status();
    auto m = engine::DecodeSamplingMarker(*view);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->start, type == KESTREL_EVT_DROP_START);
    EXPECT_EQ(m->sampling_ratio, 10u);
    EXPECT_EQ(m->generation, 9u);
    std::string line;
    ASSERT_TRUE(engine::FormatControlRecord(*view, engine::OutputStyle::kText, 0, line).ok());
    EXPECT_NE(line.find(type == KESTREL_EVT_DROP_START ? "cpu 1 drop_start: keeping 1 in 10"
                                                       : "cpu 1 drop_stop: keeping 1 in 10"),
              std::string::npos)
        << line;
  }
}

TEST(ControlRecordsTest, WrongShapesAreRefused) {
  auto bytes = SettingsChangedBytes(1, 1, 2);
  reinterpret_cast<kestrel_settings_changed_record*>(bytes.data())->param_len[0] = 4;
  reinterpret_cast<kestrel_settings_changed_record*>(bytes.data())->param_len[1] = 6;
  auto view = engine::RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE(engine::DecodeSettingsChanged(*view).ok());
  EXPECT_FALSE(engine::DecodeSamplingMarker(*view).ok());
  const auto marker = SamplingMarkerBytes(KESTREL_EVT_DROP_START, 2, 3);
  auto marker_view = engine::RecordView::Parse(marker.data(), marker.size());
  ASSERT_TRUE(marker_view.ok());
  EXPECT_FALSE(engine::DecodeSettingsChanged(*marker_view).ok());
}

}  // namespace
}  // namespace kestrel
