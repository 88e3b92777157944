// event-tail: an example downstream consumer (docs/consumers.md). It follows
// the pet and order topics as a member of a consumer group and prints one
// line per event: time, type, aggregate, version, data. It shows what a
// downstream team needs to do:
// - join a group and commit only what it has handled (at-least-once);
// - read the CloudEvents attributes from the record headers;
// - read with isolation.level=read_committed (librdkafka's default, set
//   here so the reader sees it): records of aborted transactions, such as
//   a fenced writer's, never arrive;
// - drop redeliveries by per-aggregate version (ce_sequence), since
//   at-least-once delivery repeats records after a rebalance or a crash.
//   event-tail [--brokers LIST] [--group ID] [--topics T1,T2] [--idle-exit SECONDS]
// --idle-exit S ends the run S seconds after the last event (for scripts
// and tests); without it, it follows until Ctrl-C.
#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "events/envelope.h"
#include "kafka/handles.h"

namespace {

volatile std::sig_atomic_t stop = 0;

std::string header(const rd_kafka_message_t* m, const char* name) {
  rd_kafka_headers_t* hdrs = nullptr;
  const void* value = nullptr;
  size_t size = 0;
  if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR ||
      rd_kafka_header_get_last(hdrs, name, &value, &size) != RD_KAFKA_RESP_ERR_NO_ERROR || value == nullptr) {
    return {};
  }
  return {static_cast<const char*>(value), size};
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    out.push_back(list.substr(start, comma - start));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

// `text` as a whole decimal number, or nothing: std::atoi would take "5s"
// for 5 and "x" for 0 without a word.
std::optional<long long> whole_number(std::string_view text) {
  long long v = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc{} || ptr != end) {
    return std::nullopt;
  }
  return v;
}

// A record's version, as every reader of the log parses it; 0 for a
// record without a whole ce_sequence, which is not one of our events: as
// version 0 it never passes `last`, so it is not printed.
std::int64_t version_of(const std::string& ce_sequence) {
  try {
    return petstore::events::parse_sequence(ce_sequence);
  } catch (const std::invalid_argument&) {
    return 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const char* env_brokers = std::getenv("KAFKA_BROKERS");
  std::string brokers = env_brokers != nullptr ? env_brokers : "";
  if (brokers.empty()) {
    std::ifstream in(".run/kafka.bootstrap");
    std::getline(in, brokers);
  }
  std::string group = "event-tail";
  std::string topics = "petstore.pets.v1,petstore.orders.v1";
  long long idle_exit_s = 0;  // 0: follow until Ctrl-C
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--brokers") {
      brokers = argv[i + 1];
    } else if (flag == "--group") {
      group = argv[i + 1];
    } else if (flag == "--topics") {
      topics = argv[i + 1];
    } else if (flag == "--idle-exit") {
      const auto seconds = whole_number(argv[i + 1]);
      if (!seconds || *seconds < 0) {
        std::fprintf(stderr, "event-tail: --idle-exit takes a whole number of seconds, not '%s'\n",
                     argv[i + 1]);
        return 2;
      }
      idle_exit_s = *seconds;
    } else {
      std::fprintf(stderr,
                   "usage: event-tail [--brokers LIST] [--group ID] [--topics T1,T2] [--idle-exit S]\n");
      return 2;
    }
  }
  if (brokers.empty()) {
    std::fprintf(stderr, "event-tail: no brokers: pass --brokers or set KAFKA_BROKERS\n");
    return 2;
  }
  std::signal(SIGINT, [](int) { stop = 1; });
  std::signal(SIGTERM, [](int) { stop = 1; });

  auto conf = petstore::kafka::make_conf({
      {"bootstrap.servers", brokers},
      {"group.id", group},
      {"auto.offset.reset", "earliest"},  // a new group starts at the beginning of the log
      {"isolation.level", "read_committed"},
      // Commit in the background, but only offsets stored after handling.
      {"enable.auto.commit", "true"},
      {"enable.auto.offset.store", "false"},
  });
  petstore::kafka::HandlePtr rk;
  try {
    rk = petstore::kafka::make_handle(RD_KAFKA_CONSUMER, std::move(conf));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "event-tail: %s\n", e.what());
    return 2;
  }
  rd_kafka_poll_set_consumer(rk.get());
  const auto names = split(topics);
  const petstore::kafka::PartitionListPtr subscription(
      rd_kafka_topic_partition_list_new(static_cast<int>(names.size())));
  for (const auto& t : names) {
    rd_kafka_topic_partition_list_add(subscription.get(), t.c_str(), RD_KAFKA_PARTITION_UA);
  }
  if (const auto e = rd_kafka_subscribe(rk.get(), subscription.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    std::fprintf(stderr, "event-tail: %s\n", rd_kafka_err2str(e));
    return 2;
  }

  // The last version handled per aggregate (topic and key). A real consumer
  // keeps this with its own state, in the same transaction as its effect.
  std::map<std::pair<std::string, std::string>, long long> handled;
  // --idle-exit counts from the last event; before the first one (joining
  // the group takes a few seconds) it waits at least 30 s.
  auto last_event = std::chrono::steady_clock::now() + std::chrono::seconds(30 - std::min(idle_exit_s, 30LL));
  while (stop == 0) {
    const petstore::kafka::MessagePtr m(rd_kafka_consumer_poll(rk.get(), 200));
    if (!m) {
      if (idle_exit_s > 0 &&
          std::chrono::steady_clock::now() - last_event > std::chrono::seconds(idle_exit_s)) {
        break;
      }
      continue;
    }
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      continue;  // transient: librdkafka retries by itself
    }
    last_event = std::chrono::steady_clock::now();
    const std::string topic = rd_kafka_topic_name(m->rkt);
    const std::string key(static_cast<const char*>(m->key), m->key_len);
    const long long version = version_of(header(m.get(), "ce_sequence"));
    auto& last = handled[{topic, key}];
    if (version > last) {
      last = version;
      std::printf("%s %-40s %s v%lld %.*s\n", header(m.get(), "ce_time").c_str(),
                  header(m.get(), "ce_type").c_str(), key.c_str(), version, static_cast<int>(m->len),
                  static_cast<const char*>(m->payload));
      std::fflush(stdout);
    }
    // Handled (or a redelivery): the next commit may include it.
    const petstore::kafka::PartitionListPtr done(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(done.get(), topic.c_str(), m->partition)->offset = m->offset + 1;
    rd_kafka_offsets_store(rk.get(), done.get());
  }
  rd_kafka_consumer_close(rk.get());
  return 0;
}
