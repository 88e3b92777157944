// Writes a synthetic store's log for the audit benchmark (bench/audit): per
// pet its creation, its stock ledger (tracked, stocked) and two orders that
// are placed, reserved, completed and consumed, every record a valid event
// of the contract (petstore-audit verify finds nothing), produced as the
// services produce (idempotent, acks=all, murmur2 keys), asynchronously in
// large batches so the log is written in seconds.
//   petstore-log-generator BROKERS EVENTS [TOPIC_PREFIX]
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "kafka/handles.h"
#include "kafka/producer.h"

namespace {

using petstore::events::Envelope;

std::atomic<long> failed{0};

void on_delivery(rd_kafka_t* /*rk*/, const rd_kafka_message_t* m, void* /*opaque*/) {
  if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    failed.fetch_add(1);
  }
}

class Writer {
 public:
  Writer(const std::string& brokers, std::string prefix) : prefix_(std::move(prefix)) {
    auto conf = petstore::kafka::make_conf({{"bootstrap.servers", brokers},
                                            {"enable.idempotence", "true"},
                                            {"acks", "all"},
                                            {"linger.ms", "20"},
                                            {"batch.num.messages", "10000"},
                                            {"queue.buffering.max.messages", "1000000"},
                                            {"queue.buffering.max.kbytes", "1048576"},
                                            {"partitioner", "murmur2_random"}});
    rd_kafka_conf_set_dr_msg_cb(conf.get(), on_delivery);
    rk_ = petstore::kafka::make_handle(RD_KAFKA_PRODUCER, std::move(conf));
    time_ = petstore::events::format_time(std::chrono::system_clock::now());
  }

  ~Writer() { rd_kafka_flush(rk_.get(), 60000); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write(const std::string& topic, const char* type, const char* source, std::int64_t subject,
             std::int64_t version, std::string data) {
    Envelope e;
    e.id = petstore::events::new_event_id();
    e.type = std::string("io.petstore.") + type;
    e.source = source;
    e.subject = std::to_string(subject);
    e.version = version;
    e.time = time_;
    e.data = std::move(data);
    const auto r = petstore::events::to_record(prefix_ + topic, e);
    // Many records in flight, no wait per record: the configured murmur2
    // partitioner places them, and a full queue waits for deliveries.
    for (;;) {
      const auto code = petstore::kafka::enqueue(rk_.get(), r, RD_KAFKA_PARTITION_UA, nullptr);
      if (code == RD_KAFKA_RESP_ERR_NO_ERROR) {
        break;
      }
      if (code != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        throw std::runtime_error(rd_kafka_err2str(code));
      }
      rd_kafka_poll(rk_.get(), 100);
    }
    rd_kafka_poll(rk_.get(), 0);
    ++written_;
  }

  [[nodiscard]] long written() const { return written_; }

 private:
  std::string prefix_;
  petstore::kafka::HandlePtr rk_;
  std::string time_;
  long written_ = 0;
};

std::string n(std::int64_t v) {
  return std::to_string(v);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: petstore-log-generator BROKERS EVENTS [TOPIC_PREFIX]\n");
    return 2;
  }
  long target = 0;
  std::from_chars(argv[2], argv[2] + std::char_traits<char>::length(argv[2]), target);
  const std::string prefix = argc > 3 ? argv[3] : "petstore";
  const auto start = std::chrono::steady_clock::now();
  {
    Writer w(argv[1], prefix);
    const std::string pets = ".pets.v1", categories = ".categories.v1", orders = ".orders.v1",
                      inventory = ".inventory.v1";
    constexpr std::int64_t kPetsPerCategory = 100;
    std::int64_t pet = 1'000'000'000, order = 5'000'000'000, category = 9'000'000'000;
    for (std::int64_t i = 0; w.written() < target; ++i, ++pet) {
      if (i % kPetsPerCategory == 0) {
        ++category;
        w.write(categories, "category.created", "/petstore/pets", category, 1,
                R"({"id":)" + n(category) + R"(,"name":"category )" + n(category) + "\"}");
      }
      w.write(pets, "pet.created", "/petstore/pets", pet, 1,
              R"({"id":)" + n(pet) + R"(,"name":"pet )" + n(pet) + R"(","categoryId":)" + n(category) +
                  R"(,"status":"available"})");
      w.write(inventory, "inventory.tracked", "/petstore/inventory", pet, 1,
              R"({"petId":)" + n(pet) + R"(,"petStatus":"available","petVersion":1})");
      w.write(inventory, "inventory.stock_set", "/petstore/inventory", pet, 2,
              R"({"petId":)" + n(pet) + R"(,"quantity":10})");
      std::int64_t ledger = 2;
      for (int k = 0; k < 2; ++k) {
        ++order;
        const auto o = R"({"id":)" + n(order) + R"(,"petId":)" + n(pet) + R"(,"quantity":1)";
        const auto l = R"({"petId":)" + n(pet) + R"(,"orderId":)" + n(order) + R"(,"quantity":1})";
        w.write(orders, "order.placed", "/petstore/orders", order, 1, o + "}");
        w.write(inventory, "inventory.reserved", "/petstore/inventory", pet, ++ledger, l);
        w.write(orders, "order.reserved", "/petstore/orders", order, 2, o + "}");
        w.write(orders, "order.completed", "/petstore/orders", order, 3,
                o + R"(,"shipDate":"2026-11-22T10:00:00Z"})");
        w.write(inventory, "inventory.consumed", "/petstore/inventory", pet, ++ledger, l);
      }
    }
    std::fprintf(stderr, "produced %ld events, flushing\n", w.written());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%ld events failed; written in %.1f s\n", failed.load(), s);
  return failed.load() == 0 ? 0 : 1;
}
