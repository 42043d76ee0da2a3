// A capture file carries the event schema it was written with, and its
// records decode through that schema, not this build's: an older (or
// newer) Kestrel's file reads with its own event and parameter names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "capture_temp_dir.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/capture_file/capture_writer.h"
#include "engine/capture_file/past_schemas.h"
#include "engine/capture_file/schema_codec.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/record_view.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"
#include "shared/event_types.h"

namespace kestrel::engine::capture_file {
namespace {

// A record of `type` whose parameters are `params`, laid out as the probe
// lays them (shared/record_format.h).
std::vector<uint8_t> Record(uint16_t type, uint8_t version,
                            const std::vector<std::vector<uint8_t>>& params) {
  kestrel_record_header h{};
  h.ts_ns = 5'000'000'000;
  h.tid = 4242;
  h.tgid = 4242;
  h.type = type;
  h.version = version;
  h.nparams = static_cast<uint8_t>(params.size());
  std::vector<uint8_t> out(sizeof(h));
  for (const auto& p : params) {
    const uint16_t len = static_cast<uint16_t>(p.size());
    out.insert(out.end(), reinterpret_cast<const uint8_t*>(&len),
               reinterpret_cast<const uint8_t*>(&len) + 2);
  }
  for (const auto& p : params) out.insert(out.end(), p.begin(), p.end());
  h.len = static_cast<uint32_t>(out.size());
  std::memcpy(out.data(), &h, sizeof(h));
  return out;
}

std::vector<uint8_t> Int64(int64_t v) {
  std::vector<uint8_t> b(8);
  std::memcpy(b.data(), &v, 8);
  return b;
}

std::vector<uint8_t> Text(const std::string& s) {
  std::vector<uint8_t> b(s.begin(), s.end());
  b.push_back(0);
  return b;
}

class EmbeddedSchemaTest : public CaptureTempDirTest {
 protected:
  void SetUp() override {
    CaptureTempDirTest::SetUp();
    path_ = Path("file.kcap");
  }

  // Writes `records` into a file whose info block carries `schema` as the
  // schema of version `version`.
  void WriteFile(uint32_t version, const SchemaTable& schema,
                 const std::vector<std::vector<uint8_t>>& records) {
    CaptureInfo info = CaptureInfoOfThisMachine();
    info.schema_version = version;
    info.event_schema = EncodeSchema(schema);
    auto writer = CaptureWriter::Create(path_, info);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (const auto& r : records) {
      ASSERT_TRUE((*writer)->Append(reinterpret_cast<const kestrel_record_header*>(r.data())).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
  }

  std::string path_;
};

TEST_F(EmbeddedSchemaTest, TheCompiledSchemaRoundTripsThroughItsEncoding) {
  const SchemaTable& compiled = SchemaTable::Compiled();
  auto decoded = DecodeSchema(EncodeSchema(compiled), KESTREL_SCHEMA_VERSION);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ((*decoded)->events().size(), compiled.events().size());
  for (size_t i = 0; i < compiled.events().size(); ++i) {
    const EventInfo& want = compiled.events()[i];
    const EventInfo& got = (*decoded)->events()[i];
    EXPECT_EQ(got.type, want.type);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.syscall, want.syscall);
    EXPECT_EQ(got.return_index, want.return_index) << want.name;
    ASSERT_EQ(got.params.size(), want.params.size()) << want.name;
    for (size_t k = 0; k < want.params.size(); ++k) {
      EXPECT_EQ(got.params[k].name, want.params[k].name) << want.name;
      EXPECT_EQ(got.params[k].type, want.params[k].type) << want.name;
      EXPECT_EQ(got.params[k].source, want.params[k].source) << want.name;
      EXPECT_EQ(got.params[k].flag_set, want.params[k].flag_set) << want.name;
    }
  }
  EXPECT_EQ((*decoded)->Find(KESTREL_EVT_OPENAT)->name, "OPENAT");
}

// An "older" schema: OPENAT had three parameters, in another order and
// with other names. Its records must decode with those names, which this
// build's schema would refuse (it has more parameters).
TEST_F(EmbeddedSchemaTest, AnOlderSchemasRecordsDecodeWithTheFilesNames) {
  const auto older = SchemaTable::Copy({EventInfo{KESTREL_EVT_OPENAT,
                                                  "OPENAT",
                                                  "openat",
                                                  {
                                                      {"pathname", KPT_PATH, KPS_ARG1, KFS_NONE},
                                                      {"res", KPT_FD, KPS_RET, KFS_NONE},
                                                      {"dirfd", KPT_FD, KPS_ARG0, KFS_NONE},
                                                  }}},
                                       1);
  const std::vector<uint8_t> record =
      Record(KESTREL_EVT_OPENAT, 1, {Text("/etc/hosts"), Int64(5), Int64(-100)});
  WriteFile(1, *older, {record});

  auto reader = CaptureReader::Open(path_);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->info().schema_version, 1u);
  const kestrel_record_header* h = (*reader)->Next();
  ASSERT_NE(h, nullptr);
  EXPECT_FALSE(RecordView::Parse(h, h->len).ok()) << "this build's schema is version 2";
  auto view = RecordView::Parse(h, h->len, (*reader)->schema());
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_FALSE(DecodedEvent::Decode(*view).ok()) << "this build's OPENAT has other parameters";
  auto event = DecodedEvent::Decode(*view, (*reader)->schema());
  ASSERT_TRUE(event.ok()) << event.status();
  ASSERT_EQ(event->info().params.size(), 3u);
  EXPECT_EQ(event->info().params[0].name, "pathname");
  EXPECT_EQ(event->info().params[1].name, "res");
  EXPECT_EQ(event->info().params[2].name, "dirfd");
  EXPECT_EQ(event->String("pathname"), "/etc/hosts");
  EXPECT_EQ(event->Return(), 5);
  EXPECT_EQ(event->Int("dirfd"), -100);

  // And the printer, given the file's schema, prints the file's names.
  ThreadTableOptions options;
  options.proc_fallback = false;
  ThreadTable threads(options);
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  printer.UseSchema((*reader)->schema());
  std::string line;
  auto outcome = printer.Format(h, line);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_NE(line.find("openat pathname=\"/etc/hosts\" res=5 dirfd=AT_FDCWD"), std::string::npos)
      << line;
  EXPECT_EQ((*reader)->Next(), nullptr);
  EXPECT_FALSE((*reader)->damage().has_value());
}

// A newer schema is read too: the file says what its records are. An event
// this build has never heard of, with a parameter type it does not know,
// decodes with that parameter as raw bytes.
TEST_F(EmbeddedSchemaTest, ANewerSchemaIsReadThroughTheEmbeddedSchema) {
  std::vector<EventInfo> events = SchemaTable::Compiled().events();
  constexpr uint16_t kFutureType = 4000;
  EventInfo future{kFutureType, "FUTURE_CALL", "future_call", {}};
  future.params.push_back({"res", KPT_ERRNO, KPS_RET, KFS_NONE});
  future.params.push_back({"blob", KPT_PARAM_TYPE_MAX, KPS_ARG0, KFS_NONE});
  events.push_back(future);
  const auto newer = SchemaTable::Copy(events, KESTREL_SCHEMA_VERSION + 1);
  // KPT_PARAM_TYPE_MAX has no name of its own ("none", as no real
  // parameter is): it travels as a type this build does not know, as a
  // later Kestrel's new type would.
  const std::vector<uint8_t> encoded = EncodeSchema(*newer);

  CaptureInfo info = CaptureInfoOfThisMachine();
  info.schema_version = KESTREL_SCHEMA_VERSION + 1;
  info.event_schema = encoded;
  {
    auto writer = CaptureWriter::Create(path_, info);
    ASSERT_TRUE(writer.ok()) << writer.status();
    const std::vector<uint8_t> r =
        Record(kFutureType, KESTREL_SCHEMA_VERSION + 1, {Int64(0), {1, 2, 3}});
    ASSERT_TRUE((*writer)->Append(reinterpret_cast<const kestrel_record_header*>(r.data())).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  auto reader = CaptureReader::Open(path_);
  ASSERT_TRUE(reader.ok()) << reader.status();
  const kestrel_record_header* h = (*reader)->Next();
  ASSERT_NE(h, nullptr);
  auto view = RecordView::Parse(h, h->len, (*reader)->schema());
  ASSERT_TRUE(view.ok()) << view.status();
  auto event = DecodedEvent::Decode(*view, (*reader)->schema());
  ASSERT_TRUE(event.ok()) << event.status();
  EXPECT_EQ(event->info().name, "FUTURE_CALL");
  EXPECT_EQ(event->info().params[1].type, KPT_BYTEBUF);
  EXPECT_EQ(event->String("blob"), std::string("\x01\x02\x03", 3));
  EXPECT_EQ(event->Return(), 0);
}

TEST_F(EmbeddedSchemaTest, ANewerSchemaWithoutItsSchemaIsRefused) {
  CaptureInfo info = CaptureInfoOfThisMachine();
  info.schema_version = KESTREL_SCHEMA_VERSION + 1;
  info.event_schema.clear();
  auto writer = CaptureWriter::Create(path_, info);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = CaptureReader::Open(path_);
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(std::string(reader.status().message()).find("newer Kestrel (event schema"),
            std::string::npos)
      << reader.status();
}

TEST_F(EmbeddedSchemaTest, ADamagedEmbeddedSchemaIsReportedAtOpen) {
  std::vector<uint8_t> encoded = EncodeSchema(SchemaTable::Compiled());
  encoded.resize(encoded.size() / 2);
  CaptureInfo info = CaptureInfoOfThisMachine();
  info.event_schema = encoded;
  auto writer = CaptureWriter::Create(path_, info);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = CaptureReader::Open(path_);
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(std::string(reader.status().message()).find("embedded event schema"), std::string::npos)
      << reader.status();
}

TEST_F(EmbeddedSchemaTest, AFileWithoutASchemaUsesThisBuilds) {
  CaptureInfo info = CaptureInfoOfThisMachine();
  info.event_schema.clear();
  auto writer = CaptureWriter::Create(path_, info);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = CaptureReader::Open(path_);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ(&(*reader)->schema(), &SchemaTable::Compiled());
}

// Schema version 1 wrote files without their schema: this build keeps it,
// generated from the version-1 sources (past_schemas/describe_schema.cpp).
TEST_F(EmbeddedSchemaTest, SchemaVersionOneIsKept) {
  EXPECT_TRUE(PastSchema(KESTREL_SCHEMA_VERSION).empty()) << "files of this version embed it";
  EXPECT_TRUE(PastSchema(0).empty());
  auto v1 = DecodeSchema(PastSchema(1), 1);
  ASSERT_TRUE(v1.ok()) << v1.status();
  EXPECT_EQ((*v1)->version(), 1u);
  const EventInfo* openat = (*v1)->Find(KESTREL_EVT_OPENAT);
  ASSERT_NE(openat, nullptr);
  EXPECT_EQ(openat->name, "OPENAT");
  EXPECT_EQ(openat->syscall, "openat");
  ASSERT_GE(openat->params.size(), 5u);
  EXPECT_EQ(openat->params[0].name, "fd");
  EXPECT_EQ(openat->params[0].source, KPS_RET);
  EXPECT_EQ(openat->params[2].name, "name");
  EXPECT_EQ(openat->params[2].type, KPT_PATH);
  EXPECT_EQ(openat->params[3].flag_set, KFS_OPEN_FLAGS);
  EXPECT_EQ(openat->return_index, 0);
}

// A file of schema 1 (no schema in it) reads through the kept one; a file
// of a version no Kestrel wrote without its schema is refused.
TEST_F(EmbeddedSchemaTest, AFileOfAnOlderVersionWithoutItsSchemaReadsThroughTheKeptOne) {
  CaptureInfo info = CaptureInfoOfThisMachine();
  info.schema_version = 1;
  info.event_schema.clear();
  {
    auto writer = CaptureWriter::Create(path_, info);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  auto reader = CaptureReader::Open(path_);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_NE(&(*reader)->schema(), &SchemaTable::Compiled());
  EXPECT_EQ((*reader)->schema().version(), 1u);
  EXPECT_NE((*reader)->schema().Find(KESTREL_EVT_OPENAT), nullptr);

  info.schema_version = 0;
  {
    auto writer = CaptureWriter::Create(path_, info);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  auto refused = CaptureReader::Open(path_);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(std::string(refused.status().message()).find("event schema 0"), std::string::npos)
      << refused.status();
}

}  // namespace
}  // namespace kestrel::engine::capture_file
