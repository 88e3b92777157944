#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <httplib.h>

#include "kafka/consumer.h"
#include "redis/connection.h"

namespace petstore::testing {

// What scripts/test starts for the whole run (scripts/lib.sh,
// start_test_stack), found through the environment it exports: one Redis,
// one Apache Kafka node for most tests, and a three-node Kafka cluster
// (replication factor 3, min.insync.replicas 2) for the tests that kill,
// pause and restart brokers.
struct Stack {
  std::string kafka_brokers;    // PETSTORE_TEST_KAFKA_BROKERS: the one node
  std::string cluster_brokers;  // PETSTORE_TEST_CLUSTER_BROKERS: the cluster's three
  // PETSTORE_TEST_CLUSTER_LINK_BROKERS: the cluster's LINK listeners as
  // advertised, where LinkProxy instances listen; ..._LINK_LISTENERS: the
  // listeners themselves, in the same order.
  std::string cluster_link_brokers;
  std::string cluster_link_listeners;
  std::string run_dir;  // PETSTORE_TEST_RUN_DIR: the nodes' pid files and start commands
  std::string redis_host = "127.0.0.1";
  int redis_port = 0;    // PETSTORE_TEST_REDIS_PORT
  std::string site_dir;  // PETSTORE_TEST_SITE_DIR: the API page the entry point serves (docs_site)

  static const Stack& get();
  // The test Redis, with the client's default timeouts.
  [[nodiscard]] redis::Endpoint redis_endpoint() const;
};

// "a,b,c" -> {"a", "b", "c"}: a broker list, for one.
std::vector<std::string> split_list(const std::string& list);

// A name no other test (or earlier run) uses: tests get their own topics,
// Redis prefixes and consumer groups.
std::string unique_name(const std::string& stem);

// Creates a topic through Kafka's admin API (CreateTopics), replicated on
// every broker of `brokers` up to three, and returns once every partition
// has a leader.
void create_topic(const std::string& name, int partitions, const std::string& brokers);
void create_topic(const std::string& name, int partitions);  // on the one node

// Deletes a partition's records before `offset` on the one node (Kafka's
// DeleteRecords): its log then starts there.
void delete_records_before(const std::string& topic, int partition, std::int64_t offset);
// Deletes a consumer group with its committed offsets (it must have no
// member left): its next members start from the beginning.
void delete_group(const std::string& brokers, const std::string& group);
// Commits `offset` for `group` in a partition, from outside the group (it
// must have no member).
void commit_group_offset(const std::string& brokers, const std::string& group, const std::string& topic,
                         int partition, std::int64_t offset);

// The three-node cluster's nodes, 1 to 3, under real faults: the node's
// process killed (SIGKILL), paused (SIGSTOP) and resumed, or started again
// on its data (and back in the cluster's metadata before this returns).
void cluster_node_kill(int node);
void cluster_node_start(int node);
void cluster_nodes_start(const std::vector<int>& nodes);  // all started, then each waited for
// Resumes every paused node, starts every dead one, and waits until the
// cluster's metadata lists all three: a test that fails half-way leaves
// the next one a whole cluster.
void cluster_heal();
void cluster_node_pause(int node);
void cluster_node_resume(int node);
// The node leading a partition of a topic on the cluster, from its metadata.
int cluster_leader(const std::string& topic, int partition);

// Every record of a topic, all partitions, from the beginning to the end
// (of the one node, or of the cluster given), as a read_committed consumer
// reads them: what aborted transactions hold is not there.
std::vector<kafka::Message> read_topic(const std::string& topic);
std::vector<kafka::Message> read_topic(const std::string& brokers, const std::string& topic);
// The same from any cluster, handing each record to `on_record` as
// librdkafka gives it (timestamps, null keys and values included).
void read_topic(const std::string& brokers, const std::string& topic,
                const std::function<void(const rd_kafka_message_t&)>& on_record);

// One Redis command against the test Redis, returning a flat string result.
std::vector<std::string> redis_command(const std::vector<std::string>& args);
// Deletes every key starting with `prefix`.
void redis_wipe(const std::string& prefix);

}  // namespace petstore::testing
