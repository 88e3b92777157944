// The broker program's durable log (docs/local-log.md), end to end: the real
// tools/kafka-mock-broker program with a data directory, real Kafka clients
// producing and consuming over TCP, then SIGTERM or SIGKILL and a restart on
// the same directory. Each test starts a broker program of its own (the
// program is what is under test; the suite's shared broker has no journal).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "kafka/handles.h"
#include "support/service_process.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

namespace fs = std::filesystem;

// Everything a consumer can see of a record, nulls told from empty strings.
struct Seen {
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::vector<std::pair<std::string, std::optional<std::string>>> headers;
  std::int64_t timestamp = 0;
  int timestamp_type = 0;
  bool operator==(const Seen&) const = default;
};

std::optional<std::string> bytes(const void* p, size_t n) {
  return p == nullptr ? std::nullopt
                      : std::optional<std::string>(std::string(static_cast<const char*>(p), n));
}

std::vector<Seen> read_all(const std::string& brokers, const std::string& topic) {
  std::vector<Seen> out;
  read_topic(brokers, topic, [&out](const rd_kafka_message_t& m) {
    Seen s;
    s.partition = m.partition;
    s.offset = m.offset;
    s.key = bytes(m.key, m.key_len);
    s.value = bytes(m.payload, m.len);
    rd_kafka_timestamp_type_t type{};
    s.timestamp = rd_kafka_message_timestamp(&m, &type);
    s.timestamp_type = static_cast<int>(type);
    rd_kafka_headers_t* headers = nullptr;
    if (rd_kafka_message_headers(const_cast<rd_kafka_message_t*>(&m), &headers) ==
        RD_KAFKA_RESP_ERR_NO_ERROR) {
      const char* name = nullptr;
      const void* value = nullptr;
      size_t size = 0;
      for (size_t i = 0;
           rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i) {
        s.headers.emplace_back(name, bytes(value, size));
      }
    }
    out.push_back(std::move(s));
  });
  std::sort(out.begin(), out.end(), [](const Seen& a, const Seen& b) {
    return std::tie(a.partition, a.offset) < std::tie(b.partition, b.offset);
  });
  return out;
}

// Produces `n` records to `topic` round-robin over `partitions`, with keys,
// values and headers that are sometimes null or empty, and timestamps of
// their own; waits until the broker acknowledged every one.
void produce(const std::string& brokers, const std::string& topic, int partitions, int n, int first) {
  auto conf =
      kafka::make_conf({{"bootstrap.servers", brokers}, {"enable.idempotence", "true"}, {"acks", "all"}});
  const auto rk = kafka::make_handle(RD_KAFKA_PRODUCER, std::move(conf));
  for (int i = first; i < first + n; ++i) {
    const std::string key = "key-" + std::to_string(i);
    const std::string value = R"({"n":)" + std::to_string(i) + "}";
    rd_kafka_headers_t* headers = rd_kafka_headers_new(3);
    rd_kafka_header_add(headers, "ce_id", -1, key.data(), static_cast<ssize_t>(key.size()));
    if (i % 3 == 0) {
      rd_kafka_header_add(headers, "nothing", -1, nullptr, 0);
    }
    if (i % 4 == 0) {
      rd_kafka_header_add(headers, "empty", -1, "", 0);
    }
    std::array<rd_kafka_vu_t, 7> vu{};
    vu[0].vtype = RD_KAFKA_VTYPE_TOPIC;
    vu[0].u.cstr = topic.c_str();
    vu[1].vtype = RD_KAFKA_VTYPE_PARTITION;
    vu[1].u.i32 = i % partitions;
    vu[2].vtype = RD_KAFKA_VTYPE_KEY;
    vu[2].u.mem = {i % 5 == 0 ? nullptr : const_cast<char*>(key.data()), i % 5 == 0 ? 0 : key.size()};
    vu[3].vtype = RD_KAFKA_VTYPE_VALUE;
    vu[3].u.mem = {i % 7 == 0 ? nullptr : const_cast<char*>(value.data()), i % 7 == 0 ? 0 : value.size()};
    vu[4].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
    vu[4].u.i = RD_KAFKA_MSG_F_COPY;
    vu[5].vtype = RD_KAFKA_VTYPE_TIMESTAMP;
    vu[5].u.i64 = 1'700'000'000'000 + i;  // not "now": a restore must keep the producer's time
    vu[6].vtype = RD_KAFKA_VTYPE_HEADERS;
    vu[6].u.headers = headers;
    rd_kafka_error_t* error = rd_kafka_produceva(rk.get(), vu.data(), vu.size());
    ASSERT_EQ(error, nullptr) << rd_kafka_error_string(error);
  }
  ASSERT_EQ(rd_kafka_flush(rk.get(), 30000), RD_KAFKA_RESP_ERR_NO_ERROR);
}

class BrokerJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / unique_name("petstore-journal");
    fs::create_directories(dir_);
    control_port_ = free_port();
    broker_ = std::make_unique<ServiceProcess>(
        "/usr/bin/env",
        std::vector<std::string>{"MOCK_DATA_DIR=" + dir_.string(),
                                 "MOCK_TOPICS_FILE=" PETSTORE_SOURCE_DIR "/schemas/topics.txt",
                                 "MOCK_CONTROL_PORT=" + std::to_string(control_port_), MOCK_BROKER_BINARY},
        control_port_, "/healthz");
    broker_->wait_ready();
  }
  void TearDown() override {
    broker_.reset();
    fs::remove_all(dir_);
  }

  std::string bootstrap() {
    httplib::Client control("127.0.0.1", control_port_);
    const auto res = control.Get("/bootstrap");
    EXPECT_TRUE(res && res->status == 200) << broker_->log_tail();
    auto text = res ? res->body : std::string();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
      text.pop_back();
    }
    return text;
  }
  void create(const std::string& topic, int partitions) {
    httplib::Client control("127.0.0.1", control_port_);
    const auto res = control.Post(
        "/topics", R"({"name":")" + topic + R"(","partitions":)" + std::to_string(partitions) + "}",
        "application/json");
    ASSERT_TRUE(res && res->status / 100 == 2) << (res ? res->body : "no answer");
  }

  fs::path dir_;
  int control_port_ = 0;
  std::unique_ptr<ServiceProcess> broker_;
};

TEST_F(BrokerJournalTest, AStopAndStartKeepsEveryRecordAsItWas) {
  const std::string made = unique_name("journal.made");  // created at run time
  create(made, 4);
  produce(bootstrap(), made, 4, 400, 0);
  produce(bootstrap(), "petstore.pets.v1", 6, 60, 0);  // a topic of schemas/topics.txt
  const auto before = read_all(bootstrap(), made);
  const auto pets_before = read_all(bootstrap(), "petstore.pets.v1");
  ASSERT_EQ(before.size(), 400U);
  ASSERT_EQ(pets_before.size(), 60U);
  ASSERT_EQ(before[0].timestamp, 1'700'000'000'000);

  broker_->restart();  // SIGTERM, then the same command on the same directory
  EXPECT_NE(broker_->log_tail().find("journal: complete and synced"), std::string::npos)
      << "the stop did not drain the journal:\n"
      << broker_->log_tail();
  EXPECT_EQ(read_all(bootstrap(), made), before) << broker_->log_tail();
  EXPECT_EQ(read_all(bootstrap(), "petstore.pets.v1"), pets_before);

  // The log goes on where it was: new records after the restored ones, and
  // those survive the next restart too.
  produce(bootstrap(), made, 4, 40, 400);
  auto after = read_all(bootstrap(), made);
  ASSERT_EQ(after.size(), 440U);
  EXPECT_EQ(after.back().offset, 109);  // partition 3: 110 records
  broker_->restart();
  EXPECT_EQ(read_all(bootstrap(), made), after);
}

TEST_F(BrokerJournalTest, ACrashKeepsWhatWasJournaledAndCutsATornTail) {
  const std::string topic = unique_name("journal.crash");
  create(topic, 2);
  produce(bootstrap(), topic, 2, 200, 0);
  const auto acknowledged = read_all(bootstrap(), topic);
  // The recorder trails the broker by one fetch (fetch.wait.max.ms 10) and
  // syncs every 100 ms; this bounds a failure, it does not time a success.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  broker_->kill_hard();

  // A machine crash in the middle of a write: half a frame at the end.
  const auto file = dir_ / "journal" / topic / "1.log";
  ASSERT_TRUE(fs::exists(file));
  std::ofstream(file, std::ios::binary | std::ios::app) << std::string("\x40\x00\x00\x00\x12\x34", 6);

  broker_->restart();
  EXPECT_EQ(read_all(bootstrap(), topic), acknowledged) << broker_->log_tail();
  bool kept_aside = false;
  for (const auto& entry : fs::directory_iterator(file.parent_path())) {
    kept_aside = kept_aside || entry.path().filename().string().starts_with("1.log.damaged-");
  }
  EXPECT_TRUE(kept_aside) << "the cut bytes were not kept beside the journal";
  httplib::Client control("127.0.0.1", control_port_);
  const auto health = control.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200) << health->body;
}

}  // namespace
}  // namespace petstore::testing
