#include "engine/output/event_printer.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "../support/strict_json.h"
#include "engine/decode/syscall_names.h"
#include "event_record_builder.h"
#include "record_test_builder.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::DropMarkerRecord;
using ::kestrel::testing::EventHeader;
using ::kestrel::testing::EventRecord;
using ::kestrel::testing::GenericRecord;
using ::kestrel::testing::Str;
using ::kestrel::testing::StrictJson;
using ::kestrel::testing::StrList;

const kestrel_record_header* Header(const std::vector<uint8_t>& bytes) {
  return reinterpret_cast<const kestrel_record_header*>(bytes.data());
}

// Synthetic tids must not be looked up in this machine's /proc.
ThreadTable NoProcTable() {
  ThreadTableOptions o;
  o.proc_fallback = false;
  return ThreadTable(o);
}

TEST(EventPrinterTest, JsonLineCarriesEveryField) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kJson, /*boot_time_ns=*/1'000'000'000'000'000'000, threads,
                       stdout);
  const auto bytes = GenericRecord(SYS_close, {static_cast<uint64_t>(-1), 0, 0, 0, 0, 0}, -9,
                                   /*tid=*/4242, /*tgid=*/4241);
  std::string line;
  ASSERT_TRUE(printer.Format(Header(bytes), line).ok());
  EXPECT_EQ(line,
            "{\"ts\":1000000001000000123,\"comm\":\"?\",\"tid\":4242,\"pid\":4241,\"cpu\":0,"
            "\"syscall\":\"close\",\"id\":3,\"args\":[18446744073709551615,0,0,0,0,0],"
            "\"ret\":-9}");
}

TEST(EventPrinterTest, TextLineNamesTheSyscallAndErrno) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  const auto bytes =
      GenericRecord(SYS_openat, {static_cast<uint64_t>(-100), 0x7ffd1000, 0, 0, 0, 0}, -2,
                    /*tid=*/4242, /*tgid=*/4241);
  std::string line;
  ASSERT_TRUE(printer.Format(Header(bytes), line).ok());
  EXPECT_NE(line.find(" ? 4242 openat(-100, 0x7ffd1000, 0, 0, 0, 0) = -2 ENOENT"),
            std::string::npos)
      << line;
}

TEST(EventPrinterTest, CorruptRecordIsAnError) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  auto bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  reinterpret_cast<kestrel_record_header*>(bytes.data())->len = 5;
  std::string line;
  EXPECT_FALSE(printer.Format(Header(bytes), line).ok());
}

TEST(EventPrinterTest, DropMarkerJsonSaysHowManyAndWhere) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kJson, /*boot_time_ns=*/1000, threads, stdout);
  const auto bytes = DropMarkerRecord(/*cpu=*/1, /*lost=*/37, 1'500'000'000, 1'900'000'000, 40);
  std::string line;
  ASSERT_TRUE(printer.Format(Header(bytes), line).ok());
  EXPECT_EQ(line,
            "{\"ts\":2000001000,\"drop\":{\"cpu\":1,\"lost\":37,\"first_loss_ts\":1500001000,"
            "\"last_loss_ts\":1900001000,\"lost_total\":40}}");
}

TEST(EventPrinterTest, DropMarkerTextLine) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  const auto bytes = DropMarkerRecord(0, 5, 1'000'000'000, 1'500'000'000, 5);
  std::string line;
  ASSERT_TRUE(printer.Format(Header(bytes), line).ok());
  EXPECT_NE(line.find(" --- DROPPED 5 record(s) on cpu 0 from "), std::string::npos) << line;
  EXPECT_NE(line.find("(5 on this cpu in total)"), std::string::npos) << line;
}

TEST(EventPrinterTest, DropMarkerClaimingNoLossIsAnError) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  const auto bytes = DropMarkerRecord(0, 0, 0, 0, 0);
  std::string line;
  EXPECT_FALSE(printer.Format(Header(bytes), line).ok());
}

ThreadInfo Named(uint32_t tid, std::string comm) {
  ThreadInfo t;
  t.tid = tid;
  t.tgid = tid;
  t.comm = std::move(comm);
  return t;
}

std::vector<uint8_t> OpenRecord(uint32_t tid, std::string_view path) {
  return EventRecord(KESTREL_EVT_OPENAT, {.tid = tid, .tgid = tid}, {{"fd", 3}, {"dirfd", -100}},
                     {{"name", Str(path)}});
}

TEST(EventPrinterTest, NamesTheThreadAsItWasWhenTheCallWasMade) {
  ThreadTable threads = NoProcTable();
  threads.Insert(Named(500, "bash"));
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout,
                       ShownSyscalls::Only({*SyscallId("openat")}));
  std::string line;
  ASSERT_EQ(printer.Format(Header(OpenRecord(500, "/etc/shadow")), line).value(),
            PrintOutcome::kEventShown);
  EXPECT_NE(line.find(" bash 500 openat "), std::string::npos) << line;
  // The rename is not asked for: it is consumed for the table, not shown.
  const auto rename =
      EventRecord(KESTREL_EVT_PRCTL, {.tid = 500, .tgid = 500},
                  {{"res", 0}, {"option", PR_SET_NAME}}, {{"arg2_str", Str("sshd")}});
  ASSERT_EQ(printer.Format(Header(rename), line).value(), PrintOutcome::kStateOnly);
  EXPECT_EQ(line, "");
  ASSERT_EQ(printer.Format(Header(OpenRecord(500, "/etc/shadow")), line).value(),
            PrintOutcome::kEventShown);
  EXPECT_NE(line.find(" sshd 500 openat "), std::string::npos) << line;
}

TEST(EventPrinterTest, ChildOfAHiddenForkIsNamedAfterItsParent) {
  ThreadTable threads = NoProcTable();
  threads.Insert(Named(500, "bash"));
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout,
                       ShownSyscalls::Only({*SyscallId("openat")}));
  std::string line;
  const auto fork = EventRecord(KESTREL_EVT_CLONE, {.tid = 500, .tgid = 500},
                                {{"res", 501}, {"child_tid", 501}, {"child_pid", 501}});
  ASSERT_EQ(printer.Format(Header(fork), line).value(), PrintOutcome::kStateOnly);
  const auto exec = EventRecord(KESTREL_EVT_EXECVE, {.tid = 501, .tgid = 501}, {{"res", 0}},
                                {{"comm", Str("cat")}, {"exe", Str("/usr/bin/cat")}});
  ASSERT_EQ(printer.Format(Header(exec), line).value(), PrintOutcome::kStateOnly);
  ASSERT_EQ(printer.Format(Header(OpenRecord(501, "/etc/hostname")), line).value(),
            PrintOutcome::kEventShown);
  EXPECT_NE(line.find(" cat 501 openat "), std::string::npos) << line;
}

TEST(EventPrinterTest, FailedExecShowsTheNameItsRecordCarries) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  const auto exec = EventRecord(KESTREL_EVT_EXECVE, {.tid = 600, .tgid = 600}, {{"res", -2}},
                                {{"comm", Str("launcher")}, {"exe", Str("/nonexistent")}});
  std::string line;
  ASSERT_EQ(printer.Format(Header(exec), line).value(), PrintOutcome::kEventShown);
  EXPECT_NE(line.find(" launcher 600 execve res=-2(ENOENT) exe=\"/nonexistent\""),
            std::string::npos)
      << line;
}

TEST(EventPrinterTest, ProcessExitShowsWithExitGroupOnly) {
  ThreadTable threads = NoProcTable();
  threads.Insert(Named(700, "cat"));
  const auto exit =
      EventRecord(KESTREL_EVT_PROCESS_EXIT, {.tid = 700, .tgid = 700}, {{"group_dead", 1}});
  std::string line;
  EventPrinter hidden(OutputStyle::kText, 0, threads, stdout,
                      ShownSyscalls::Only({*SyscallId("openat")}));
  EXPECT_EQ(hidden.Format(Header(exit), line).value(), PrintOutcome::kStateOnly);
  EventPrinter shown(OutputStyle::kText, 0, threads, stdout,
                     ShownSyscalls::Only({*SyscallId("exit_group")}));
  EXPECT_EQ(shown.Format(Header(exit), line).value(), PrintOutcome::kEventShown);
  EXPECT_NE(line.find(" cat 700 process_exit status=0 "), std::string::npos) << line;
}

// A name with an ESC sequence and a newline, a path and argv with invalid
// UTF-8 and controls: one line each, nothing raw, JSON strictly valid.
const char kHostileComm[] = "\x1b[2J\nfake 1 x";
const char kHostilePath[] = "/tmp/\x1b]0;pwn\x07\n\xff\xfe\\";

std::vector<uint8_t> HostileExec() {
  return EventRecord(KESTREL_EVT_EXECVE, {.tid = 800, .tgid = 800}, {{"res", 0}},
                     {{"comm", Str(kHostileComm)},
                      {"exe", Str(kHostilePath)},
                      {"args", StrList({"sh", "-c", "echo \"\x1b[31mred\n\xc3\x28\""})},
                      {"cwd", Str("/home/\xe2\x82\xac")}});
}

TEST(EventPrinterTest, TextEscapesEveryStringColumn) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kText, 0, threads, stdout);
  std::string line;
  ASSERT_EQ(printer.Format(Header(HostileExec()), line).value(), PrintOutcome::kEventShown);
  for (char c : line) ASSERT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(c) << " in " << line;
  EXPECT_NE(line.find(" \\x1b[2J\\x0afake 1 x 800 execve "), std::string::npos) << line;
  EXPECT_NE(line.find("exe=\"/tmp/\\x1b]0;pwn\\x07\\x0a\\xff\\xfe\\\\\""), std::string::npos)
      << line;
  EXPECT_NE(line.find("args=[\"sh\", \"-c\", \"echo \\\"\\x1b[31mred\\x0a\\xc3(\\\"\"]"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("cwd=\"/home/\\xe2\\x82\\xac\""), std::string::npos) << line;
}

TEST(EventPrinterTest, JsonIsValidWhateverTheStrings) {
  ThreadTable threads = NoProcTable();
  EventPrinter printer(OutputStyle::kJson, 0, threads, stdout);
  std::string line;
  ASSERT_EQ(printer.Format(Header(HostileExec()), line).value(), PrintOutcome::kEventShown);
  EXPECT_EQ(StrictJson::Check(line), "") << line;
  EXPECT_NE(line.find("\"comm\":\"\\u001b[2J\\u000afake 1 x\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"exe\":\"/tmp/\\u001b]0;pwn\\u0007\\u000a\xef\xbf\xbd\xef\xbf\xbd\\\\\""),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("\"cwd\":\"/home/\xe2\x82\xac\""), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace kestrel::engine
