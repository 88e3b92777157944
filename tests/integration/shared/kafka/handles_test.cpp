// kafka::query_watermarks against Apache Kafka's three-node cluster of the
// suite: a handle that only asks for offsets (it neither produces to the
// topic nor consumes it, so librdkafka does not look its leader up again
// by itself) finds a partition's new leader while the old one is down, and
// after the old one came back as a follower.
#include "kafka/handles.h"

#include <gtest/gtest.h>

#include <string>

#include "kafka/producer.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

kafka::HandlePtr asker() {
  return kafka::make_handle(RD_KAFKA_CONSUMER,
                            kafka::make_client_conf({{"bootstrap.servers", Stack::get().cluster_brokers}}));
}

TEST(QueryWatermarks, FindsAPartitionsNewLeaderWhileTheOldIsDownAndAfterItCameBack) {
  cluster_heal();
  const auto topic = unique_name("watermarks");
  create_topic(topic, 1, Stack::get().cluster_brokers);
  kafka::Producer producer{{Stack::get().cluster_brokers, "handles-test", 0, 5000, ""}};
  for (int i = 0; i < 3; ++i) {
    producer.append_to({topic, "k", "v", {}}, 0);
  }
  // Both know the partition's leader from asking once.
  const auto during = asker();
  const auto after = asker();
  EXPECT_EQ(kafka::query_watermarks(during.get(), topic, 0, 10000).high, 3);
  EXPECT_EQ(kafka::query_watermarks(after.get(), topic, 0, 10000).high, 3);

  const int leader = cluster_leader(topic, 0);
  cluster_node_kill(leader);
  // The cluster elects another once the dead broker's session (6 s) ends.
  EXPECT_EQ(kafka::query_watermarks(during.get(), topic, 0, 30000).high, 3);

  cluster_node_start(leader);
  ASSERT_NE(cluster_leader(topic, 0), leader) << "the old leader came back leading: nothing moved";
  EXPECT_EQ(kafka::query_watermarks(after.get(), topic, 0, 10000).high, 3);
}

}  // namespace
}  // namespace petstore::testing
