// Kafka for the Kafka output's tests (unit and through the binary):
// librdkafka's mock cluster, whose broker listens on a loopback port, and
// the topic read back from the start of each partition.
#ifndef KESTREL_TEST_SUPPORT_KAFKA_TOPIC_H_
#define KESTREL_TEST_SUPPORT_KAFKA_TOPIC_H_

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kestrel::testing {

// A mock cluster of one broker holding `topic` in `partitions` partitions;
// `rk` only holds the cluster. StopMockKafka undoes it.
inline void StartMockKafka(const char* topic, int partitions, rd_kafka_t** rk,
                           rd_kafka_mock_cluster_t** cluster, std::string* bootstraps) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  // No bootstrap warning from a handle that only holds the cluster.
  rd_kafka_conf_set_log_cb(conf, [](const rd_kafka_t*, int, const char*, const char*) {});
  *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  ASSERT_NE(*rk, nullptr) << err;
  *cluster = rd_kafka_mock_cluster_new(*rk, 1);
  ASSERT_NE(*cluster, nullptr);
  *bootstraps = rd_kafka_mock_cluster_bootstraps(*cluster);
  ASSERT_EQ(rd_kafka_mock_topic_create(*cluster, topic, partitions, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
}

inline void StopMockKafka(rd_kafka_t* rk, rd_kafka_mock_cluster_t* cluster) {
  if (cluster != nullptr) rd_kafka_mock_cluster_destroy(cluster);
  if (rk != nullptr) rd_kafka_destroy(rk);
}

struct KafkaMessage {
  int32_t partition = 0;
  std::string key;
  std::string value;
  std::string priority;  // the header
};

// Everything in `topic`'s `partitions` from their start, until `want`
// messages came and then 500 ms more with nothing new (a duplicate would
// show), or 15 s.
inline std::vector<KafkaMessage> ConsumeKafkaTopic(const std::string& bootstraps, const char* topic,
                                                   int partitions, size_t want) {
  using namespace std::chrono_literals;
  std::vector<KafkaMessage> got;
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  const std::pair<const char*, std::string> props[] = {
      {"bootstrap.servers", bootstraps},
      {"group.id", "kestrel-test"},
      {"enable.auto.commit", "false"},
  };
  for (const auto& [k, v] : props) {
    EXPECT_EQ(rd_kafka_conf_set(conf, k, v.c_str(), err, sizeof(err)), RD_KAFKA_CONF_OK) << err;
  }
  rd_kafka_t* consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
  EXPECT_NE(consumer, nullptr) << err;
  if (consumer == nullptr) return got;
  rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) {
    rd_kafka_topic_partition_list_add(parts, topic, p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  EXPECT_EQ(rd_kafka_assign(consumer, parts), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_topic_partition_list_destroy(parts);
  auto deadline = std::chrono::steady_clock::now() + 15s;
  bool all = false;
  while (std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer, 100);
    if (m == nullptr) continue;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      KafkaMessage c;
      c.partition = m->partition;
      c.key.assign(static_cast<const char*>(m->key), m->key_len);
      c.value.assign(static_cast<const char*>(m->payload), m->len);
      rd_kafka_headers_t* headers = nullptr;
      const void* v = nullptr;
      size_t n = 0;
      if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR &&
          rd_kafka_header_get_last(headers, "priority", &v, &n) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        c.priority.assign(static_cast<const char*>(v), n);
      }
      got.push_back(std::move(c));
    }
    rd_kafka_message_destroy(m);
    if (!all && got.size() >= want) {
      all = true;
      deadline = std::chrono::steady_clock::now() + 500ms;
    }
  }
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  return got;
}

}  // namespace kestrel::testing

#endif  // KESTREL_TEST_SUPPORT_KAFKA_TOPIC_H_
