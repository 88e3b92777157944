#include "support/stack.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <ranges>
#include <stdexcept>
#include <thread>

#include "redis/connection.h"

namespace petstore::testing {
namespace {

std::string required(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') {
    throw std::runtime_error(
        std::string(name) +
        " is not set: run integration tests through scripts/test, which starts the broker and Redis");
  }
  return v;
}

// The pid of a cluster node's process, from the pid file its start wrote.
pid_t node_pid(int node) {
  const auto path = Stack::get().run_dir + "/cluster" + std::to_string(node) + ".pid";
  std::ifstream in(path);
  pid_t pid = -1;
  if (!(in >> pid) || pid <= 0) {
    throw std::runtime_error("no pid in " + path);
  }
  return pid;
}

void signal_node(int node, int sig) {
  if (::kill(node_pid(node), sig) != 0) {
    throw std::runtime_error("cannot signal cluster node " + std::to_string(node));
  }
}

kafka::HandlePtr admin_client(const std::string& brokers) {
  return kafka::make_handle(RD_KAFKA_PRODUCER, kafka::make_conf({{"bootstrap.servers", brokers}}));
}

// One admin request on a queue of its own: `send` issues it there, and
// `failure` reads its result. Throws with `what` and the reason if the
// request or its result failed, or no answer came in 30 s.
void admin_request(rd_kafka_t* rk, const std::string& what,
                   const std::function<void(rd_kafka_queue_t*)>& send,
                   const std::function<std::string(rd_kafka_event_t*)>& failure) {
  const kafka::QueuePtr queue(rd_kafka_queue_new(rk));
  send(queue.get());
  const std::unique_ptr<rd_kafka_event_t, decltype(&rd_kafka_event_destroy)> ev(
      rd_kafka_queue_poll(queue.get(), 30000), &rd_kafka_event_destroy);
  if (!ev) {
    throw std::runtime_error(what + ": no answer");
  }
  const std::string why = rd_kafka_event_error(ev.get()) != RD_KAFKA_RESP_ERR_NO_ERROR
                              ? rd_kafka_event_error_string(ev.get())
                              : failure(ev.get());
  if (!why.empty()) {
    throw std::runtime_error(what + ": " + why);
  }
}

// The brokers the cluster's metadata lists, and each partition's leader (-1: none).
struct ClusterView {
  int brokers = 0;
  std::vector<int> leaders;
};
ClusterView view(rd_kafka_t* rk, const std::string& topic) {
  ClusterView v;
  const rd_kafka_metadata_t* raw = nullptr;
  const kafka::TopicPtr handle(topic.empty() ? nullptr : rd_kafka_topic_new(rk, topic.c_str(), nullptr));
  if (rd_kafka_metadata(rk, handle ? 0 : 1, handle.get(), &raw, 5000) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return v;
  }
  const kafka::MetadataPtr md(raw);
  v.brokers = md->broker_cnt;
  for (int i = 0; i < md->topic_cnt; ++i) {
    if (topic == md->topics[i].topic && md->topics[i].err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      for (int p = 0; p < md->topics[i].partition_cnt; ++p) {
        v.leaders.push_back(md->topics[i].partitions[p].err == RD_KAFKA_RESP_ERR_NO_ERROR
                                ? md->topics[i].partitions[p].leader
                                : -1);
      }
    }
  }
  return v;
}

}  // namespace

const Stack& Stack::get() {
  static const Stack stack = [] {
    Stack s;
    s.kafka_brokers = required("PETSTORE_TEST_KAFKA_BROKERS");
    s.cluster_brokers = required("PETSTORE_TEST_CLUSTER_BROKERS");
    s.cluster_link_brokers = required("PETSTORE_TEST_CLUSTER_LINK_BROKERS");
    s.cluster_link_listeners = required("PETSTORE_TEST_CLUSTER_LINK_LISTENERS");
    s.run_dir = required("PETSTORE_TEST_RUN_DIR");
    s.redis_port = std::stoi(required("PETSTORE_TEST_REDIS_PORT"));
    s.site_dir = required("PETSTORE_TEST_SITE_DIR");
    return s;
  }();
  return stack;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> each;
  for (size_t from = 0; from <= list.size();) {
    const auto comma = std::min(list.find(',', from), list.size());
    each.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  return each;
}

std::string unique_name(const std::string& stem) {
  static std::atomic<int> counter{0};
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return stem + "-" + std::to_string(getpid()) + "-" + std::to_string(now % 1'000'000'000) + "-" +
         std::to_string(++counter);
}

void create_topic(const std::string& name, int partitions) {
  create_topic(name, partitions, Stack::get().kafka_brokers);
}

void create_topic(const std::string& name, int partitions, const std::string& brokers) {
  const auto rk = admin_client(brokers);
  const int replicas = std::min(3, view(rk.get(), "").brokers);
  if (replicas < 1) {
    throw std::runtime_error("no broker of " + brokers + " answers");
  }
  std::array<char, 512> err{};
  rd_kafka_NewTopic_t* topic =
      rd_kafka_NewTopic_new(name.c_str(), partitions, replicas, err.data(), err.size());
  if (topic == nullptr) {
    throw std::runtime_error("topic " + name + ": " + err.data());
  }
  admin_request(
      rk.get(), "CreateTopics " + name,
      [&](rd_kafka_queue_t* queue) {
        rd_kafka_CreateTopics(rk.get(), &topic, 1, nullptr, queue);
        rd_kafka_NewTopic_destroy(topic);
      },
      [](rd_kafka_event_t* ev) {
        size_t n = 0;
        const rd_kafka_topic_result_t** results =
            rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), &n);
        for (size_t i = 0; i < n; ++i) {
          if (rd_kafka_topic_result_error(results[i]) != RD_KAFKA_RESP_ERR_NO_ERROR) {
            return std::string(rd_kafka_topic_result_error_string(results[i]));
          }
        }
        return std::string();
      });
  // The controller has the topic; each broker learns it, and each partition
  // its leader, a moment later: asked one by one, every broker must know
  // them, or a client that asks another one first is told the topic is unknown.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (const auto& broker : split_list(brokers)) {
    const auto one = admin_client(broker);
    for (;;) {
      const auto v = view(one.get(), name);
      // Listed with a leader is not yet served: the leader answers
      // NOT_LEADER_FOR_PARTITION until it has taken the partition up, so
      // each partition's offsets must be asked for once successfully.
      if (static_cast<int>(v.leaders.size()) == partitions &&
          std::ranges::none_of(v.leaders, [](int leader) { return leader < 0; }) &&
          std::ranges::all_of(std::views::iota(0, partitions), [&](int p) {
            std::int64_t low = 0;
            std::int64_t high = 0;
            return rd_kafka_query_watermark_offsets(one.get(), name.c_str(), p, &low, &high, 5000) ==
                   RD_KAFKA_RESP_ERR_NO_ERROR;
          })) {
        break;
      }
      if (std::chrono::steady_clock::now() > give_up) {
        std::string what = "topic ";
        what += name;
        what += ": not known with a leader for every partition at ";
        what += broker;
        throw std::runtime_error(what += " after 30 s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

void delete_records_before(const std::string& topic, int partition, std::int64_t offset) {
  const auto rk = admin_client(Stack::get().kafka_brokers);
  const kafka::PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), partition)->offset = offset;
  rd_kafka_DeleteRecords_t* request = rd_kafka_DeleteRecords_new(list.get());
  admin_request(
      rk.get(), "DeleteRecords " + topic,
      [&](rd_kafka_queue_t* queue) {
        rd_kafka_DeleteRecords(rk.get(), &request, 1, nullptr, queue);
        rd_kafka_DeleteRecords_destroy(request);
      },
      [](rd_kafka_event_t* ev) {
        const auto* done = rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(ev));
        if (done == nullptr || done->cnt != 1) {
          return std::string("no result");
        }
        return done->elems[0].err == RD_KAFKA_RESP_ERR_NO_ERROR
                   ? std::string()
                   : std::string(rd_kafka_err2str(done->elems[0].err));
      });
}

void delete_group(const std::string& brokers, const std::string& group) {
  const auto rk = admin_client(brokers);
  rd_kafka_DeleteGroup_t* request = rd_kafka_DeleteGroup_new(group.c_str());
  admin_request(
      rk.get(), "DeleteGroups " + group,
      [&](rd_kafka_queue_t* queue) {
        rd_kafka_DeleteGroups(rk.get(), &request, 1, nullptr, queue);
        rd_kafka_DeleteGroup_destroy(request);
      },
      [](rd_kafka_event_t* ev) {
        size_t n = 0;
        const rd_kafka_group_result_t** results =
            rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev), &n);
        for (size_t i = 0; i < n; ++i) {
          if (const rd_kafka_error_t* e = rd_kafka_group_result_error(results[i]);
              e != nullptr && rd_kafka_error_code(e) != RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) {
            return std::string(rd_kafka_error_string(e));
          }
        }
        return std::string();
      });
}

void commit_group_offset(const std::string& brokers, const std::string& group, const std::string& topic,
                         int partition, std::int64_t offset) {
  const kafka::HandlePtr rk = kafka::make_handle(
      RD_KAFKA_CONSUMER,
      kafka::make_conf(
          {{"bootstrap.servers", brokers}, {"group.id", group}, {"enable.auto.commit", "false"}}));
  const kafka::PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), partition)->offset = offset;
  const auto e = rd_kafka_commit(rk.get(), list.get(), 0);
  rd_kafka_consumer_close(rk.get());
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw std::runtime_error("commit " + group + ": " + rd_kafka_err2str(e));
  }
}

void cluster_node_kill(int node) {
  signal_node(node, SIGKILL);
}

void cluster_node_pause(int node) {
  signal_node(node, SIGSTOP);
}

void cluster_node_resume(int node) {
  signal_node(node, SIGCONT);
}

void cluster_node_start(int node) {
  cluster_nodes_start({node});
}

void cluster_nodes_start(const std::vector<int>& nodes) {
  // All first, then the wait: a node alone cannot elect a controller in a
  // quorum of three, so it serves nothing until a second one is back.
  for (const int node : nodes) {
    const auto start = Stack::get().run_dir + "/cluster/node" + std::to_string(node) + ".start";
    // The start command scripts/lib.sh wrote for this node (start_kafka).
    if (std::system(start.c_str()) != 0) {  // NOLINT(bugprone-command-processor)
      throw std::runtime_error("cannot run " + start);
    }
  }
  const auto each = split_list(Stack::get().cluster_brokers);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  for (const int node : nodes) {
    // Back once its own listener answers a metadata request.
    const auto rk = admin_client(each.at(static_cast<size_t>(node - 1)));
    while (view(rk.get(), "").brokers < 1) {
      if (std::chrono::steady_clock::now() > give_up) {
        throw std::runtime_error("cluster node " + std::to_string(node) + " did not come back in 90 s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
}

void cluster_heal() {
  std::vector<int> dead;
  for (int node = 1; node <= 3; ++node) {
    const pid_t pid = node_pid(node);
    ::kill(pid, SIGCONT);
    if (::kill(pid, 0) != 0) {
      dead.push_back(node);
    }
  }
  cluster_nodes_start(dead);
  const auto rk = admin_client(Stack::get().cluster_brokers);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (view(rk.get(), "").brokers < 3) {
    if (std::chrono::steady_clock::now() > give_up) {
      throw std::runtime_error("the cluster has not got its three brokers back in 90 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

int cluster_leader(const std::string& topic, int partition) {
  const auto rk = admin_client(Stack::get().cluster_brokers);
  return view(rk.get(), topic).leaders.at(static_cast<size_t>(partition));
}

std::vector<kafka::Message> read_topic(const std::string& topic) {
  return read_topic(Stack::get().kafka_brokers, topic);
}

std::vector<kafka::Message> read_topic(const std::string& brokers, const std::string& topic) {
  std::vector<kafka::Message> out;
  read_topic(brokers, topic, [&out](const rd_kafka_message_t& m) { out.push_back(kafka::to_message(m)); });
  return out;
}

void read_topic(const std::string& brokers, const std::string& topic,
                const std::function<void(const rd_kafka_message_t&)>& on_record) {
  auto conf = kafka::make_conf({{"bootstrap.servers", brokers},
                                {"group.id", unique_name("reader")},
                                {"enable.partition.eof", "true"},
                                {"isolation.level", "read_committed"},
                                {"enable.auto.commit", "false"}});
  const kafka::HandlePtr rk = kafka::make_handle(RD_KAFKA_CONSUMER, std::move(conf));
  const auto partitions = kafka::partition_count(rk.get(), topic, 5000);
  const kafka::PartitionListPtr list(rd_kafka_topic_partition_list_new(partitions));
  for (int p = 0; p < partitions; ++p) {
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  rd_kafka_assign(rk.get(), list.get());
  int at_end = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (at_end < partitions && std::chrono::steady_clock::now() < give_up) {
    const kafka::MessagePtr m(rd_kafka_consumer_poll(rk.get(), 200));
    if (!m) {
      continue;
    }
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      ++at_end;
      continue;
    }
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      continue;
    }
    on_record(*m);
  }
  if (at_end < partitions) {
    throw std::runtime_error("could not read topic " + topic + " to its end");
  }
  rd_kafka_consumer_close(rk.get());
}

redis::Endpoint Stack::redis_endpoint() const {
  redis::Endpoint e;
  e.host = redis_host;
  e.port = redis_port;
  return e;
}

std::vector<std::string> redis_command(const std::vector<std::string>& args) {
  auto endpoint = Stack::get().redis_endpoint();
  endpoint.command_timeout = std::chrono::milliseconds(5000);
  redis::Connection conn(endpoint);
  const auto reply = conn.command(redis::Args(args.begin(), args.end()));
  const auto& r = redis::expect_ok(reply);
  std::vector<std::string> out;
  if (r.type == REDIS_REPLY_ARRAY) {
    for (size_t i = 0; i < r.elements; ++i) {
      out.emplace_back(redis::as_string(*r.element[i]));
    }
    return out;
  }
  if (r.type == REDIS_REPLY_INTEGER) {
    out.push_back(std::to_string(r.integer));
    return out;
  }
  if (r.type != REDIS_REPLY_NIL) {
    out.emplace_back(redis::as_string(r));
  }
  return out;
}

void redis_wipe(const std::string& prefix) {
  redis_command({"EVAL",
                 "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1] .. '*')) do "
                 "redis.call('DEL', k) n = n + 1 end return n",
                 "0", prefix});
}

}  // namespace petstore::testing
