// What a ruleset's conditions read decides the probe's settings.
#include "run_probe_settings.h"

#include <gtest/gtest.h>

#include "engine/fields/field_registry.h"

namespace kestrel::cli {
namespace {

engine::filter::FieldRef Ref(std::string name, std::optional<std::string> index = std::nullopt) {
  engine::filter::FieldRef ref;
  ref.name = std::move(name);
  ref.index = std::move(index);
  return ref;
}

TEST(RunProbeSettingsTest, NoBufferOrResultFieldMeansNoDataAndNoFailedCalls) {
  engine::fields::FieldRegistry registry;
  FieldNeedsRecorder recorder(registry);
  ASSERT_TRUE(recorder.Resolve(Ref("proc.name")).ok());
  ASSERT_TRUE(recorder.Resolve(Ref("fd.name")).ok());
  EXPECT_FALSE(recorder.needs().buffers);
  EXPECT_FALSE(recorder.needs().result);
  kestrel_capture_settings base{};
  base.snaplen = 80;
  base.capture_io_data = 1;
  const kestrel_capture_settings s = SettingsForNeeds(base, recorder.needs());
  EXPECT_EQ(s.snaplen, 0u);
  EXPECT_EQ(s.capture_io_data, 0);
  EXPECT_EQ(s.drop_failed, 1);
  EXPECT_EQ(DescribeNeeds(s), "snaplen 0, io data off, drop_failed on");
}

TEST(RunProbeSettingsTest, BufferAndResultFieldsKeepWhatTheyRead) {
  engine::fields::FieldRegistry registry;
  for (const char* result : {"evt.res", "evt.rawres", "evt.failed"}) {
    FieldNeedsRecorder recorder(registry);
    ASSERT_TRUE(recorder.Resolve(Ref(result)).ok()) << result;
    EXPECT_TRUE(recorder.needs().result) << result;
    EXPECT_EQ(SettingsForNeeds({}, recorder.needs()).drop_failed, 0) << result;
  }
  FieldNeedsRecorder recorder(registry);
  ASSERT_TRUE(recorder.Resolve(Ref("evt.buffer")).ok());
  EXPECT_TRUE(recorder.needs().buffers);
  const kestrel_capture_settings s = SettingsForNeeds({}, recorder.needs());
  EXPECT_EQ(s.snaplen, kRuleBufferSnaplen);
  EXPECT_EQ(s.capture_io_data, 1);
  FieldNeedsRecorder by_arg(registry);
  ASSERT_TRUE(by_arg.Resolve(Ref("evt.arg.data")).ok());
  EXPECT_TRUE(by_arg.needs().buffers);
}

TEST(RunProbeSettingsTest, AnUnknownFieldStaysAnError) {
  engine::fields::FieldRegistry registry;
  FieldNeedsRecorder recorder(registry);
  EXPECT_FALSE(recorder.Resolve(Ref("evt.nosuchfield")).ok());
}

}  // namespace
}  // namespace kestrel::cli
