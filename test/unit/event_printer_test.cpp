#include "event_printer.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "record_test_builder.h"

namespace kestrel::cli {
namespace {

using ::kestrel::testing::DropMarkerRecord;
using ::kestrel::testing::GenericRecord;

const kestrel_record_header* Header(const std::vector<uint8_t>& bytes) {
  return reinterpret_cast<const kestrel_record_header*>(bytes.data());
}

TEST(EventPrinterTest, JsonLineCarriesEveryField) {
  EventPrinter printer(/*json=*/true, /*boot_time_ns=*/1'000'000'000'000'000'000, stdout);
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
  EventPrinter printer(/*json=*/false, 0, stdout);
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
  EventPrinter printer(false, 0, stdout);
  auto bytes = GenericRecord(SYS_close, {1, 0, 0, 0, 0, 0}, 0);
  reinterpret_cast<kestrel_record_header*>(bytes.data())->len = 5;
  std::string line;
  EXPECT_FALSE(printer.Format(Header(bytes), line).ok());
}

TEST(EventPrinterTest, DropMarkerJsonSaysHowManyAndWhere) {
  EventPrinter printer(/*json=*/true, /*boot_time_ns=*/1000, stdout);
  const auto bytes = DropMarkerRecord(/*cpu=*/1, /*lost=*/37, 1'500'000'000, 1'900'000'000, 40);
  std::string line;
  ASSERT_TRUE(printer.Format(Header(bytes), line).ok());
  EXPECT_EQ(line,
            "{\"ts\":2000001000,\"drop\":{\"cpu\":1,\"lost\":37,\"first_loss_ts\":1500001000,"
            "\"last_loss_ts\":1900001000,\"lost_total\":40}}");
}

TEST(EventPrinterTest, DropMarkerTextLine) {
  EventPrinter printer(/*json=*/false, 0, stdout);
  const auto bytes = DropMarkerRecord(0, 5, 1'000'000'000, 1'500'000'000, 5);
  std::string line;
  ASSERT_TRUE(printer.Format(Header(bytes), line).ok());
  EXPECT_NE(line.find(" --- DROPPED 5 record(s) on cpu 0 from "), std::string::npos) << line;
  EXPECT_NE(line.find("(5 on this cpu in total)"), std::string::npos) << line;
}

TEST(EventPrinterTest, DropMarkerClaimingNoLossIsAnError) {
  EventPrinter printer(false, 0, stdout);
  const auto bytes = DropMarkerRecord(0, 0, 0, 0, 0);
  std::string line;
  EXPECT_FALSE(printer.Format(Header(bytes), line).ok());
}

}  // namespace
}  // namespace kestrel::cli
