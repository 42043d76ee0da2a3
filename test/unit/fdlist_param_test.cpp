// KPT_FDLIST (poll's descriptors): decoded pairs, a count that does not match
// its bytes, and how text and JSON print the list.
#include <gtest/gtest.h>
#include <poll.h>

#include <cstring>
#include <string>
#include <vector>

#include "../support/strict_json.h"
#include "engine/decode/event_decoder.h"
#include "engine/decode/record_view.h"
#include "engine/output/param_format.h"
#include "event_record_builder.h"

namespace kestrel::engine {
namespace {

using ::kestrel::testing::EventRecord;
using ::kestrel::testing::ParamBytes;
using ::kestrel::testing::StrictJson;

// A KPT_FDLIST as the probe writes it: a u16 count, then (s64, s16) pairs.
ParamBytes FdListBytes(const std::vector<PolledFd>& fds, uint16_t count) {
  ParamBytes b(sizeof(count));
  std::memcpy(b.data(), &count, sizeof(count));
  for (const PolledFd& f : fds) {
    const size_t at = b.size();
    b.resize(at + 10);
    std::memcpy(b.data() + at, &f.fd, 8);
    std::memcpy(b.data() + at + 8, &f.events, 2);
  }
  return b;
}

std::string Params(const std::vector<uint8_t>& bytes, OutputStyle style) {
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  EXPECT_TRUE(view.ok()) << view.status();
  absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(*view);
  EXPECT_TRUE(event.ok()) << event.status();
  std::string out;
  AppendParams(out, *event, style);
  return out;
}

TEST(FdListParamTest, DecodesEveryPair) {
  const std::vector<PolledFd> fds = {{3, POLLIN}, {-1, 0}, {7, POLLOUT | POLLWRNORM}};
  const auto bytes = EventRecord(KESTREL_EVT_POLL, {}, {{"res", 2}, {"timeout", -1}},
                                 {{"fds", FdListBytes(fds, 3)}});
  absl::StatusOr<RecordView> view = RecordView::Parse(bytes.data(), bytes.size());
  ASSERT_TRUE(view.ok());
  absl::StatusOr<DecodedEvent> event = DecodedEvent::Decode(*view);
  ASSERT_TRUE(event.ok());
  const std::optional<std::vector<PolledFd>> got = event->FdList("fds");
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].fd, 3);
  EXPECT_EQ((*got)[0].events, POLLIN);
  EXPECT_EQ((*got)[1].fd, -1);
  EXPECT_EQ((*got)[1].events, 0);
  EXPECT_EQ((*got)[2].fd, 7);
  EXPECT_EQ((*got)[2].events, POLLOUT | POLLWRNORM);
}

TEST(FdListParamTest, CountBeyondTheBytesIsNoList) {
  EXPECT_EQ(DecodeFdList(FdListBytes({{3, POLLIN}}, 2)), std::nullopt);
  EXPECT_EQ(DecodeFdList(ParamBytes{1}), std::nullopt);
  ASSERT_TRUE(DecodeFdList(FdListBytes({}, 0)).has_value());
  EXPECT_TRUE(DecodeFdList(FdListBytes({}, 0))->empty());
}

TEST(FdListParamTest, PrintsDescriptorsWithTheirEventNames) {
  const std::vector<PolledFd> fds = {{3, POLLIN}, {4, 0}};
  const auto bytes = EventRecord(KESTREL_EVT_POLL, {}, {{"res", 1}, {"timeout", 10}},
                                 {{"fds", FdListBytes(fds, 2)}});
  EXPECT_EQ(Params(bytes, OutputStyle::kText), "res=1 timeout=10 fds=[3:POLLIN, 4:0]");
  const std::string json = "{" + Params(bytes, OutputStyle::kJson) + "}";
  EXPECT_EQ(json,
            "{\"res\":1,\"timeout\":10,\"fds\":[{\"fd\":3,\"events\":\"POLLIN\"},"
            "{\"fd\":4,\"events\":\"0\"}]}");
  EXPECT_EQ(StrictJson::Check(json), "");
}

}  // namespace
}  // namespace kestrel::engine
