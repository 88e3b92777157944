#include "support/stack.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "es/epoch.h"
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

void control(const std::string& path, const std::string& body) {
  const auto& s = Stack::get();
  httplib::Client c(s.control_host, s.control_port);
  const auto r = c.Post(path.c_str(), body, "application/json");
  if (!r || r->status != 204) {
    throw std::runtime_error("mock broker control " + path + " failed: " + (r ? r->body : "no answer"));
  }
}

}  // namespace

const Stack& Stack::get() {
  static const Stack stack = [] {
    Stack s;
    s.kafka_brokers = required("PETSTORE_TEST_KAFKA_BROKERS");
    s.redis_port = std::stoi(required("PETSTORE_TEST_REDIS_PORT"));
    s.control_port = std::stoi(required("PETSTORE_TEST_MOCK_CONTROL_PORT"));
    return s;
  }();
  return stack;
}

std::string unique_name(const std::string& stem) {
  static std::atomic<int> counter{0};
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return stem + "-" + std::to_string(getpid()) + "-" + std::to_string(now % 1'000'000'000) + "-" +
         std::to_string(++counter);
}

void create_topic(const std::string& name, int partitions) {
  control("/topics", R"({"name":")" + name + R"(","partitions":)" + std::to_string(partitions) + "}");
}

void broker_down(int broker) {
  control("/brokers/" + std::to_string(broker) + "/down", "");
}
void broker_up(int broker) {
  control("/brokers/" + std::to_string(broker) + "/up", "");
}

void move_leader(const std::string& topic, int partition, int broker) {
  control("/leader", R"({"topic":")" + topic + R"(","partition":)" + std::to_string(partition) +
                         R"(,"broker":)" + std::to_string(broker) + "}");
}

std::vector<kafka::Message> read_topic(const std::string& topic) {
  std::vector<kafka::Message> out;
  read_topic(Stack::get().kafka_brokers, topic,
             [&out](const rd_kafka_message_t& m) { out.push_back(kafka::to_message(m)); });
  return out;
}

std::vector<kafka::Message> read_events(const std::string& topic) {
  auto records = read_topic(topic);
  // In log order per partition, as es::Fences needs them.
  std::stable_sort(records.begin(), records.end(),
                   [](const auto& a, const auto& b) { return a.partition < b.partition; });
  es::Fences fences;
  std::erase_if(records,
                [&](const kafka::Message& m) { return fences.next(m) != es::EpochRule::Verdict::Counts; });
  return records;
}

void read_topic(const std::string& brokers, const std::string& topic,
                const std::function<void(const rd_kafka_message_t&)>& on_record) {
  auto conf = kafka::make_conf({{"bootstrap.servers", brokers},
                                {"group.id", unique_name("reader")},
                                {"enable.partition.eof", "true"},
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
