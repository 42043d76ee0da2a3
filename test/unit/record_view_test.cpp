#include "engine/decode/record_view.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "engine/decode/generic_syscall.h"
#include "record_test_builder.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::GenericRecord;

TEST(RecordViewTest, DecodesAGenericRecord) {
  const std::vector<uint8_t> bytes =
      GenericRecord(SYS_openat, {static_cast<uint64_t>(-100), 0x7ffd0000, 0x80000, 0, 0, 0}, 3);
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->header().tid, 42u);
  EXPECT_EQ(view->header().tgid, 41u);
  EXPECT_EQ(view->nparams(), 8u);
  absl::StatusOr<GenericSyscall> sc = DecodeGenericSyscall(*view);
  ASSERT_TRUE(sc.ok()) << sc.status();
  EXPECT_EQ(sc->id, static_cast<uint32_t>(SYS_openat));
  EXPECT_EQ(static_cast<int64_t>(sc->args[0]), -100);
  EXPECT_EQ(sc->args[1], 0x7ffd0000u);
  EXPECT_EQ(sc->args[2], 0x80000u);
  EXPECT_EQ(sc->ret, 3);
}

TEST(RecordViewTest, RejectsTruncatedInput) {
  const std::vector<uint8_t> bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  EXPECT_FALSE(RecordView::Parse(bytes.data(), 10).ok());
  EXPECT_FALSE(RecordView::Parse(bytes.data(), bytes.size() - 1).ok());
  EXPECT_FALSE(RecordView::Parse(nullptr, 0).ok());
}

TEST(RecordViewTest, RejectsLengthsThatRunPastTheRecord) {
  std::vector<uint8_t> bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  auto* r = reinterpret_cast<kestrel_generic_record*>(bytes.data());
  r->param_len[7] = 9;  // one byte more than the record holds
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_FALSE(view.ok());
  EXPECT_NE(view.status().message().find("parameter 7"), std::string::npos) << view.status();
}

TEST(RecordViewTest, RejectsTooManyParameterLengths) {
  std::vector<uint8_t> bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  reinterpret_cast<kestrel_record_header*>(bytes.data())->nparams = 255;
  EXPECT_FALSE(RecordView::Parse(bytes.data(), bytes.size()).ok());
}

TEST(RecordViewTest, RejectsOtherSchemaVersions) {
  std::vector<uint8_t> bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  reinterpret_cast<kestrel_record_header*>(bytes.data())->version = KESTREL_SCHEMA_VERSION + 1;
  EXPECT_FALSE(RecordView::Parse(bytes.data(), bytes.size()).ok());
}

TEST(RecordViewTest, IntegerChecksTheParameterSize) {
  const std::vector<uint8_t> bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE(view->Integer<uint32_t>(0).ok());
  EXPECT_FALSE(view->Integer<uint64_t>(8).ok());
  EXPECT_EQ(*view->Integer<uint64_t>(1), 1u);
}

TEST(RecordViewTest, GenericDecoderRejectsOtherTypes) {
  std::vector<uint8_t> bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  reinterpret_cast<kestrel_record_header*>(bytes.data())->type = KESTREL_EVT_UNKNOWN;
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE(DecodeGenericSyscall(*view).ok());
}

}  // namespace
}  // namespace kestrel::engine
