// The committed capture files (test/fixtures/capture/, made by
// make_fixtures.sh with the Kestrel of their time) read with this build:
// every record decodes through the file's own schema and the known
// workload is there, call by call. A file of an older schema version stays
// in the folder when the schema changes, so this is the test that older
// files are still read.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/capture_file/capture_reader.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/record_view.h"
#include "engine/output/event_printer.h"
#include "engine/state/thread_table.h"

namespace kestrel::engine::capture_file {
namespace {

namespace fs = std::filesystem;

constexpr char kFixtureDir[] = KESTREL_SOURCE_DIR "/test/fixtures/capture";
constexpr char kWorkloadDir[] = "/tmp/kestrel-fixture";

std::vector<std::string> Fixtures() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(kFixtureDir)) {
    if (entry.path().extension() == ".kcap") out.push_back(entry.path().string());
  }
  return out;
}

struct Open {
  std::string path;
  int64_t fd;
  std::string comm;
};

TEST(FixtureFilesTest, ThereIsAFixtureOfThisBuildsSchema) {
  EXPECT_TRUE(fs::exists(absl::StrCat(kFixtureDir, "/schema-v", KESTREL_SCHEMA_VERSION, ".kcap")))
      << "run test/fixtures/capture/make_fixtures.sh and commit its file";
}

TEST(FixtureFilesTest, EveryFixtureReadsWholeWithTheKnownWorkload) {
  const std::vector<std::string> files = Fixtures();
  ASSERT_FALSE(files.empty()) << kFixtureDir;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    auto reader = CaptureReader::Open(file);
    ASSERT_TRUE(reader.ok()) << reader.status();
    const SchemaTable& schema = (*reader)->schema();
    ThreadTableOptions options;
    options.proc_fallback = false;
    ThreadTable threads(options);
    // The printer is the one consumer that takes every kind of record;
    // the thread table it feeds names the workload's thread.
    EventPrinter printer(OutputStyle::kText, (*reader)->info().boot_time_ns, threads, nullptr);
    printer.UseSchema(schema);
    std::vector<Open> opens;
    std::string line;
    uint64_t undecodable = 0;
    while (const kestrel_record_header* h = (*reader)->Next()) {
      if (!printer.Format(h, line).ok()) {
        ++undecodable;
        continue;
      }
      auto view = RecordView::Parse(h, h->len, schema);
      ASSERT_TRUE(view.ok()) << view.status();
      const EventInfo* info = schema.Find(h->type);
      if (info == nullptr || info->name != "OPENAT") continue;
      auto event = DecodedEvent::Decode(*view, schema);
      ASSERT_TRUE(event.ok()) << event.status();
      const std::string path = event->String("name").value_or("");
      // The FIFO the workload waits on is opened before its exec.
      if (path.rfind(kWorkloadDir, 0) != 0 || path == std::string(kWorkloadDir) + "/go") continue;
      const ThreadInfo* t = threads.Resolve(h->tgid, h->tid);
      opens.push_back({path, event->Return().value_or(0), t != nullptr ? t->comm : "?"});
    }
    EXPECT_FALSE((*reader)->damage().has_value()) << (*reader)->damage()->what;
    EXPECT_GT((*reader)->records(), 0u);
    EXPECT_EQ(undecodable, 0u);

    // known.txt opened three times, each missing-N once, in the order the
    // workload made them, all by kfixture.
    ASSERT_EQ(opens.size(), 6u);
    const std::string dir = kWorkloadDir;
    for (int i = 0; i < 3; ++i) {
      const Open& known = opens[2 * i];
      const Open& missing = opens[2 * i + 1];
      EXPECT_EQ(known.path, dir + "/known.txt");
      EXPECT_GE(known.fd, 0);
      EXPECT_EQ(known.comm, "kfixture");
      EXPECT_EQ(missing.path, absl::StrCat(dir, "/missing-", i + 1));
      EXPECT_EQ(missing.fd, -2);  // ENOENT
      EXPECT_EQ(missing.comm, "kfixture");
    }
  }
}

}  // namespace
}  // namespace kestrel::engine::capture_file
