// projection::Readiness against the test broker and Redis: a replica that
// starts is not ready until the read model's positions reach the ends its
// topic's partitions had then; a wipe (the marker gone) makes it not ready
// again until the positions reach the ends taken at that moment, and a
// record appended after that moment is not waited for. The projections
// that move the positions are left out: the test moves them itself. End to
// end, with real projections and a FLUSHALL under traffic:
// read_model_heal_test.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "es/key_space.h"
#include "kafka/producer.h"
#include "projection/readiness.h"
#include "redis/pool.h"
#include "support/link_proxy.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

using std::chrono::milliseconds;

class ReadinessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    create_topic(topic_, 2);
    for (int i = 0; i < 3; ++i) {
      producer_.append_to({topic_, "k", "p0-" + std::to_string(i), {}}, 0);  // offsets 0, 1, 2
    }
    producer_.append_to({topic_, "k", "p1-0", {}}, 1);  // offset 0
  }
  void TearDown() override {
    readiness_.stop();
    redis_wipe(space_.base());
  }

  void applied(int partition, std::int64_t offset) {
    redis_command(
        {"HSET", space_.offsets(), topic_ + ":" + std::to_string(partition), std::to_string(offset)});
  }
  // Waits (up to 10 s: the checks run every 20 ms) until `holds`.
  static bool eventually(const std::function<bool()>& holds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      if (holds()) {
        return true;
      }
      std::this_thread::sleep_for(milliseconds(5));
    }
    return false;
  }
  bool becomes(bool ready) {
    return eventually([&] { return readiness_.ready() == ready; });
  }
  std::string topic_ = unique_name("readiness");
  es::KeySpace space_{unique_name("readiness-keys"), "svc"};
  kafka::Producer producer_{
      kafka::ProducerSettings{Stack::get().kafka_brokers, "readiness-test", 2, 5000, ""}};
  redis::Pool pool_{Stack::get().redis_endpoint(), 2};
  projection::Readiness readiness_{producer_, pool_, space_, "svc", milliseconds(20)};
  std::atomic<int> not_ready_checks_{0};
};

TEST_F(ReadinessTest, AStartingReplicaIsReadyOnceEveryPartitionIsAppliedThroughItsEnd) {
  readiness_.start({topic_}, [this] { ++not_ready_checks_; });
  applied(0, 2);  // p1 still has nothing applied
  ASSERT_TRUE(eventually([&] { return readiness_.progress().applied == 3; }));
  // Told before each check's script: a second call follows a first check
  // that found the read model short.
  ASSERT_TRUE(eventually([&] { return not_ready_checks_ >= 2; }))
      << "the projection is told on every check that finds it not ready";
  EXPECT_FALSE(readiness_.ready());
  auto p = readiness_.progress();
  EXPECT_TRUE(p.rebuilding);
  EXPECT_EQ(p.total, 4);
  EXPECT_NE(readiness_.describe().find(R"("state":"rebuilding")"), std::string::npos);

  applied(1, 0);
  ASSERT_TRUE(becomes(true));
  p = readiness_.progress();
  EXPECT_EQ(p.applied, 4);
  EXPECT_FALSE(p.rebuilding);
  EXPECT_EQ(redis_command({"EXISTS", space_.ready_marker()}).at(0), "1") << "the marker is set with it";
  EXPECT_NE(readiness_.describe().find(R"("state":"ready")"), std::string::npos);
}

TEST_F(ReadinessTest, AStartingReplicaWaitsForTheLogWhateverTheMarkerSays) {
  redis_command({"SET", space_.ready_marker(), "an older snapshot's"});
  readiness_.start({topic_}, [this] { ++not_ready_checks_; });
  ASSERT_TRUE(eventually([&] { return not_ready_checks_ >= 2; }));  // a whole check done
  EXPECT_FALSE(readiness_.ready()) << "positions behind the log: Redis may be an older snapshot";
  applied(0, 2);
  applied(1, 0);
  EXPECT_TRUE(becomes(true));
}

TEST_F(ReadinessTest, AWipeMakesItNotReadyUntilTheEndsTakenThenAreReachedAndNoLater) {
  readiness_.start({topic_}, [] {});
  applied(0, 2);
  applied(1, 0);
  ASSERT_TRUE(becomes(true));

  // A wipe takes the positions and the marker with everything else.
  redis_command({"DEL", space_.offsets(), space_.ready_marker()});
  // Rebuilding once it has taken the partitions' ends as its targets.
  ASSERT_TRUE(eventually([&] { return readiness_.progress().rebuilding; }));
  EXPECT_FALSE(readiness_.ready());
  EXPECT_EQ(readiness_.progress().total, 4);
  // Appended after the rebuild took its targets: not waited for (writes are
  // refused while not ready, so none of the service's own comes meanwhile).
  producer_.append_to({topic_, "k", "p0-late", {}}, 0);  // offset 3
  applied(0, 2);
  applied(1, 0);
  EXPECT_TRUE(becomes(true));
}

// A wipe while the broker does not answer: the replica stops serving, and
// its rebuild cannot take its targets. Another replica's rebuild sets the
// marker again meanwhile. Once the broker answers, this replica rebuilds
// too and serves again; before, it found the marker, skipped the rebuild,
// and stayed not ready for good (the fault campaign found one so).
TEST_F(ReadinessTest, AWipeWhileTheBrokerIsSilentIsRebuiltOnceItAnswersWhateverTheMarkerSaysMeanwhile) {
  cluster_heal();
  ClusterLinks links;
  const auto topic = unique_name("readiness-linked");
  const auto& cluster = Stack::get().cluster_brokers;
  create_topic(topic, 1, cluster);
  kafka::Producer direct({cluster, "readiness-test", 2, 5000, ""});
  direct.append_to({topic, "k", "p0-0", {}}, 0);
  kafka::Producer linked({Stack::get().cluster_link_brokers, "readiness-test", 2, 5000, ""});
  projection::Readiness readiness(linked, pool_, space_, "svc", milliseconds(20));
  const auto applied_through = [&](std::int64_t offset) {
    redis_command({"HSET", space_.offsets(), topic + ":0", std::to_string(offset)});
  };
  readiness.start({topic}, [] {});
  applied_through(0);
  ASSERT_TRUE(eventually([&] { return readiness.ready(); }));

  links.stall(true);
  redis_command({"DEL", space_.offsets(), space_.ready_marker()});
  EXPECT_TRUE(eventually([&] { return !readiness.ready(); })) << "a wiped read model is not served";
  std::this_thread::sleep_for(std::chrono::seconds(3));  // its targets' read timed out at least once
  EXPECT_FALSE(readiness.progress().rebuilding);
  // Another replica rebuilt the read model meanwhile, and every read of the
  // targets begun before that has timed out.
  applied_through(0);
  redis_command({"SET", space_.ready_marker(), "another replica's"});
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  links.stall(false);
  EXPECT_TRUE(eventually([&] { return readiness.ready(); })) << "the rebuild owed was never taken up";
  readiness.stop();
}

TEST_F(ReadinessTest, AnEmptyTopicIsReadyAtOnce) {
  const auto empty = unique_name("readiness-empty");
  create_topic(empty, 2);
  readiness_.start({empty}, [] {});
  EXPECT_TRUE(becomes(true));
  EXPECT_EQ(readiness_.progress().total, 0);
}

}  // namespace
}  // namespace petstore::testing
