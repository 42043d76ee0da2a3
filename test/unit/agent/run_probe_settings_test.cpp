// What a ruleset's conditions read decides the probe's settings (whether a
// rule can match a failed call is the rules' analysis: run_rules.h).
#include "agent/rules/probe_settings.h"

#include <gtest/gtest.h>

#include "engine/fields/field_registry.h"
#include "shared/control_block.h"

namespace kestrel::agent {
namespace {

engine::filter::FieldRef Ref(std::string name, std::optional<std::string> index = std::nullopt) {
  engine::filter::FieldRef ref;
  ref.name = std::move(name);
  ref.index = std::move(index);
  return ref;
}

TEST(RunProbeSettingsTest, NoBufferFieldMeansNoData) {
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
  EXPECT_FALSE(recorder.needs().open_paths);
  const uint32_t omitted = OmittedParamsForNeeds(recorder.needs(), false);
  EXPECT_EQ(omitted, KESTREL_OMIT_OPEN_PATH);
  EXPECT_EQ(DescribeNeeds(s, omitted),
            "snaplen 0, io data off, drop_failed on, open paths omitted");
}

TEST(RunProbeSettingsTest, BufferFieldsAndFailedCallsKeepWhatTheyNeed) {
  engine::fields::FieldRegistry registry;
  FieldNeeds failed_calls;
  failed_calls.result = true;
  EXPECT_EQ(SettingsForNeeds({}, failed_calls).drop_failed, 0);
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

TEST(RunProbeSettingsTest, ThePathByNameOrNumberOrInEveryArgumentKeepsOpenPaths) {
  engine::fields::FieldRegistry registry;
  for (const engine::filter::FieldRef& ref :
       {Ref("evt.arg.path"), Ref("evt.rawarg.path"), Ref("evt.arg", "5"), Ref("evt.args")}) {
    FieldNeedsRecorder recorder(registry);
    ASSERT_TRUE(recorder.Resolve(ref).ok()) << ref.name;
    EXPECT_TRUE(recorder.needs().open_paths) << ref.name << " " << ref.index.value_or("");
    EXPECT_EQ(OmittedParamsForNeeds(recorder.needs(), false), 0u) << ref.name;
  }
  FieldNeedsRecorder by_other_name(registry);
  ASSERT_TRUE(by_other_name.Resolve(Ref("evt.arg.name")).ok());
  EXPECT_FALSE(by_other_name.needs().open_paths);
}

TEST(RunProbeSettingsTest, CaptureFilesKeepOpenPaths) {
  const uint32_t omitted = OmittedParamsForNeeds(FieldNeeds{}, true);
  EXPECT_EQ(omitted, 0u);
  EXPECT_EQ(DescribeNeeds({}, omitted), "snaplen 0, io data off, drop_failed off, open paths kept");
}

TEST(RunProbeSettingsTest, AnUnknownFieldStaysAnError) {
  engine::fields::FieldRegistry registry;
  FieldNeedsRecorder recorder(registry);
  EXPECT_FALSE(recorder.Resolve(Ref("evt.nosuchfield")).ok());
}

}  // namespace
}  // namespace kestrel::agent
