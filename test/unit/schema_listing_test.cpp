#include "engine/decode/schema_listing.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/decode/event_schema.h"
#include "engine/decode/falco_event_table.h"
#include "engine/decode/syscall_names.h"
#include "kestrel/capture/capture_options.h"
#include "verb_parse.h"

namespace kestrel::engine {
namespace {

// The committed table must be what the schema says today.
TEST(SchemaListingTest, CoverageDocIsCurrent) {
  std::ifstream in(KESTREL_SOURCE_DIR "/docs/syscall_coverage.md");
  ASSERT_TRUE(in.is_open()) << "docs/syscall_coverage.md is missing";
  std::stringstream committed;
  committed << in.rdbuf();
  EXPECT_EQ(committed.str(), FormatSyscallCoverage())
      << "docs/syscall_coverage.md is stale: cmake --build build --target syscall_coverage_doc";
}

// The committed reference must be what the schema says today.
TEST(SchemaListingTest, EventReferenceIsCurrent) {
  std::ifstream in(KESTREL_SOURCE_DIR "/docs/events.md");
  ASSERT_TRUE(in.is_open()) << "docs/events.md is missing";
  std::stringstream committed;
  committed << in.rdbuf();
  // Not EXPECT_EQ: a thousand-line diff would bury the one line that matters.
  EXPECT_TRUE(committed.str() == FormatEventReference())
      << "docs/events.md is stale: regenerate it with cmake --build build --target events_doc";
}

TEST(SchemaListingTest, EventReferenceShowsParamsSourcesAndFlagSets) {
  const std::string doc = FormatEventReference();
  for (const auto* events : {&AllEvents(), &OtherEvents()}) {
    for (const EventInfo& e : *events) {
      EXPECT_NE(doc.find("\n### " + std::string(e.name) + "\n"), std::string::npos) << e.name;
    }
  }
  const size_t connect = doc.find("\n### CONNECT\n");
  ASSERT_NE(connect, std::string::npos);
  EXPECT_NE(doc.find("syscall `connect`.", connect), std::string::npos);
  EXPECT_NE(doc.find("| 0 | `res` | errno |  | return value |\n", connect), std::string::npos);
  EXPECT_NE(doc.find("| 1 | `fd` | fd |  | arg0 |\n", connect), std::string::npos);
  EXPECT_NE(doc.find("| 3 | `tuple` | socktuple |  | filler |\n", connect), std::string::npos);
  EXPECT_NE(doc.find("[socket_type](#socket_type)"), std::string::npos);
  EXPECT_NE(doc.find("\n### open_flags\n"), std::string::npos);
  EXPECT_NE(doc.find("`O_CREAT` (0x40)"), std::string::npos);
  EXPECT_EQ(doc.back(), '\n');
  EXPECT_NE(doc.substr(doc.size() - 2), "\n\n");
}

TEST(SchemaListingTest, CoverageListsEverySyscallOnce) {
  const std::string doc = FormatSyscallCoverage();
  for (const SyscallEntry& s : AllSyscalls()) {
    const std::string row = "| " + std::to_string(s.id) + " | " + std::string(s.name) + " | ";
    EXPECT_NE(doc.find(row), std::string::npos) << s.name;
  }
  EXPECT_NE(doc.find("| 42 | connect | `CONNECT` | `PPME_SOCKET_CONNECT_X` |\n"),
            std::string::npos);
  EXPECT_NE(doc.find("| 76 | truncate | `TRUNCATE` | — |\n"), std::string::npos);
  EXPECT_NE(doc.find("| 257 | openat | `OPENAT` | `PPME_SYSCALL_OPENAT_2_X` |\n"),
            std::string::npos);
  EXPECT_NE(doc.find("| 0 | read | "), std::string::npos);
  EXPECT_NE(doc.find(std::to_string(AllEvents().size()) + " of " +
                     std::to_string(AllSyscalls().size()) + " syscalls"),
            std::string::npos);
}

// "N specific events, M of Falco's 154": M counts the Kestrel events whose
// syscall Falco also records specifically.
TEST(SchemaListingTest, CoverageCountsFalcosEvents) {
  size_t specific = 0;
  size_t of_falco = 0;
  for (const EventInfo& e : AllEvents()) {
    if (e.syscall.empty()) continue;
    ++specific;
    if (FindFalcoEvent(e.syscall) != nullptr) ++of_falco;
  }
  const std::string line = std::to_string(specific) + " specific events, " +
                           std::to_string(of_falco) + " of Falco's 154.\n";
  EXPECT_NE(FormatSyscallCoverage().find(line), std::string::npos) << line;
  EXPECT_GT(of_falco, 0u);
  EXPECT_LT(of_falco, specific);  // truncate, ftruncate ... are Kestrel's extras
}

TEST(SchemaListingTest, EventListShowsTypesAndFlagSets) {
  const std::string list = FormatEventList();
  EXPECT_EQ(list.substr(0, list.find('\n')), "EVENT              SYSCALL            PARAMETERS");
  EXPECT_NE(list.find("\nCONNECT            connect            res:errno fd:fd addr:sockaddr "
                      "tuple:socktuple l4proto:uint32 sock_type:flags<socket_type>\n"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find(" type:flags<socket_type> "), std::string::npos);
  size_t lines = 0;
  for (char c : list) lines += c == '\n';
  EXPECT_EQ(lines, AllEvents().size() + 1);
}

TEST(SchemaListingTest, ListEventsIsACaptureFlag) {
  absl::StatusOr<cli::CaptureOptions> o =
      cli::ParseVerbArgs<cli::CaptureOptions>(cli::DefineCaptureOptions, {"--list-events"});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->list_events);
  EXPECT_FALSE(cli::ParseVerbArgs<cli::CaptureOptions>(cli::DefineCaptureOptions, {})->list_events);
}

}  // namespace
}  // namespace kestrel::engine
