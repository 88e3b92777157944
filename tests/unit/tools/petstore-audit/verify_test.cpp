#include "verify.h"

#include <gtest/gtest.h>

#include "events/envelope.h"
#include "events/kafka_binding.h"

namespace petstore::audit {
namespace {

// A kind by its name, as the services' modules name theirs.
Kind kind(std::string_view name) {
  return kind_named(name).value();
}

// A hand-built log: records as the services write them, with positions.
class Log {
 public:
  Log() {
    topics_.names = {{kind("pet"), "p"},
                     {kind("category"), "c"},
                     {kind("order"), "o"},
                     {kind("inventory"), "i"},
                     {kind("apikey"), "k"}};
    topics_.partitions = {{"p", 1}, {"c", 1}, {"o", 1}, {"i", 1}, {"k", 1}};
  }

  kafka::Message& add(const std::string& topic, const std::string& type, std::int64_t subject,
                      std::int64_t version, std::string data) {
    return add(topic, type, std::to_string(subject), version, std::move(data));
  }

  kafka::Message& add(const std::string& topic, const std::string& type, const std::string& subject,
                      std::int64_t version, std::string data) {
    events::Envelope e;
    e.id = events::new_event_id();
    e.type = "io.petstore." + type;
    e.source = topic == "o" ? "/petstore/orders" : topic == "i" ? "/petstore/inventory" : "/petstore/pets";
    e.subject = subject;
    e.version = version;
    e.time = "2026-11-22T10:00:00.000Z";
    e.data = std::move(data);
    // As the store writes them: an order's outcome is named after the
    // inventory's answer to it (docs/saga.md).
    if (type == "inventory.reserved" || type == "inventory.refused") {
      answers_.try_emplace(order_of(e.data), e.id);
    } else if (const auto it = answers_.find(subject);
               (type == "order.reserved" || type == "order.rejected") && it != answers_.end()) {
      e.id = events::name_based_event_id("order-outcome/" + it->second);
    }
    const auto r = events::to_record(topic, e);
    kafka::Message m{topic, 0, next_offset_[topic]++, r.key, r.value, r.headers};
    messages_.push_back(std::move(m));
    return messages_.back();
  }

  VerifyReport verify(std::optional<std::chrono::milliseconds> max_pending = std::nullopt) {
    VerifyOptions o;
    o.max_pending_age = max_pending;
    o.now = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'000'000));
    Verifier v(topics_, o);
    for (const auto& m : messages_) {
      v.add(m, 1000);
    }
    return v.finish();
  }

  std::vector<kafka::Message>& messages() { return messages_; }

 private:
  Topics topics_;
  std::map<std::string, std::int64_t> next_offset_;
  std::map<std::string, std::string> answers_;  // the inventory's answer's ce_id, by order

  static std::string order_of(const std::string& data) {
    const auto at = data.find(R"("orderId":)");
    const auto from = at + std::string_view(R"("orderId":)").size();
    return at == std::string::npos ? ""
                                   : data.substr(from, data.find_first_not_of("0123456789", from) - from);
  }
  std::vector<kafka::Message> messages_;
};

std::vector<std::string> rules(const VerifyReport& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) {
    out.push_back(f.rule);
  }
  return out;
}

using Rules = std::vector<std::string>;

kafka::Message& a_pet(Log& log, std::int64_t id = 10) {
  return log.add("p", "pet.created", id, 1,
                 R"({"id":)" + std::to_string(id) + R"(,"name":"Rex","categoryId":3,"status":"available"})");
}

// Pet 10 stocked with 5, and order 20 for 2 of them reserved: the order's
// outcome is returned (ledger version 3, order version 2).
kafka::Message& a_reserved_order(Log& log) {
  log.add("i", "inventory.tracked", 10, 1, R"({"petId":10,"petStatus":"available","petVersion":1})");
  log.add("i", "inventory.stock_set", 10, 2, R"({"petId":10,"quantity":5})");
  log.add("o", "order.placed", 20, 1, R"({"id":20,"petId":10,"quantity":2})");
  log.add("i", "inventory.reserved", 10, 3, R"({"petId":10,"orderId":20,"quantity":2})");
  return log.add("o", "order.reserved", 20, 2, R"({"id":20,"petId":10,"quantity":2})");
}

TEST(Verify, ACleanLogHasNoFinding) {
  Log log;
  log.add("c", "category.created", 3, 1, R"({"id":3,"name":"Dogs"})");
  a_pet(log);
  log.add("p", "pet.status_changed", 10, 2, R"({"id":10,"from":"available","to":"pending"})");
  log.add("i", "inventory.tracked", 10, 1, R"({"petId":10,"petStatus":"available","petVersion":1})");
  log.add("i", "inventory.stock_set", 10, 2, R"({"petId":10,"quantity":5})");
  log.add("o", "order.placed", 20, 1, R"({"id":20,"petId":10,"quantity":2})");
  log.add("i", "inventory.reserved", 10, 3, R"({"petId":10,"orderId":20,"quantity":2})");
  log.add("o", "order.reserved", 20, 2, R"({"id":20,"petId":10,"quantity":2})");
  log.add("o", "order.completed", 20, 3,
          R"({"id":20,"petId":10,"quantity":2,"shipDate":"2026-11-23T00:00:00Z"})");
  log.add("i", "inventory.consumed", 10, 4, R"({"petId":10,"orderId":20,"quantity":2})");
  const auto r = log.verify();
  EXPECT_EQ(rules(r), Rules{});
  EXPECT_EQ(r.records, 10);
  EXPECT_EQ(r.aggregates.at(kind("pet")), 1);
  EXPECT_TRUE(r.pending.empty());
}

// A Produce written twice (a retry no sequence check deduplicated):
// reported at its position, counted once, not a violation.
TEST(Verify, ARecordWrittenTwiceIsACopyNotAViolation) {
  Log log;
  a_pet(log);
  a_pet(log, 11);
  auto copy = log.messages().front();
  copy.offset = 2;
  log.messages().push_back(copy);
  log.add("p", "pet.status_changed", 10, 2, R"({"id":10,"from":"available","to":"pending"})");
  const auto r = log.verify();
  EXPECT_EQ(rules(r), Rules{});
  ASSERT_EQ(r.copies.size(), 1U);
  EXPECT_EQ(r.copies[0].at.str(), "p/0@2");
  EXPECT_EQ(r.copies[0].original_offset, 0);
  EXPECT_EQ(r.copies[0].subject, 10);
  EXPECT_EQ(r.events.at(kind("pet")), 3);
  EXPECT_EQ(r.types.at("io.petstore.pet.created"), 2);
}

// The same ce_id and version with any other byte is another event: both
// rules find it at its position.
TEST(Verify, ARepeatedIdThatDiffersInOneByteIsAViolation) {
  for (const bool in_value : {true, false}) {
    Log log;
    a_pet(log);
    auto altered = log.messages().back();
    altered.offset = 1;
    if (in_value) {
      altered.value.replace(altered.value.find("Rex"), 3, "Max");
    } else {
      for (auto& h : altered.headers) {
        if (h.name == "ce_time") {
          h.value = "2026-11-22T10:00:00.001Z";
        }
      }
    }
    log.messages().push_back(altered);
    const auto r = log.verify();
    EXPECT_EQ(rules(r), (Rules{"duplicate_event_id", "duplicate_version"})) << in_value;
    ASSERT_FALSE(r.findings.empty());
    EXPECT_EQ(r.findings[0].at.str(), "p/0@1");
    EXPECT_EQ(r.findings[0].subject, 10);
    EXPECT_TRUE(r.copies.empty());
  }
}

// A byte-for-byte repeat after the aggregate's next event is no retry: the
// producer sends an aggregate's next event only once the last is written.
TEST(Verify, ARepeatAfterTheAggregatesNextEventIsAViolation) {
  Log log;
  a_pet(log);
  log.add("p", "pet.status_changed", 10, 2, R"({"id":10,"from":"available","to":"pending"})");
  auto late = log.messages().front();
  late.offset = 2;
  log.messages().push_back(late);
  const auto r = log.verify();
  EXPECT_EQ(rules(r), (Rules{"duplicate_event_id", "duplicate_version"}));
  EXPECT_TRUE(r.copies.empty());
}

TEST(Verify, GapsAndLateCreationsAreFound) {
  Log log;
  a_pet(log);
  log.add("p", "pet.status_changed", 10, 3, R"({"id":10,"from":"available","to":"sold"})");
  log.add("p", "pet.created", 11, 2, R"({"id":11,"name":"Tom","categoryId":3,"status":"available"})");
  EXPECT_EQ(rules(log.verify()), (Rules{"sequence_gap", "sequence_gap", "creation_not_first"}));
}

TEST(Verify, NothingFollowsADeletion) {
  Log log;
  a_pet(log);
  log.add("p", "pet.deleted", 10, 2, R"({"id":10})");
  log.add("p", "pet.status_changed", 10, 3, R"({"id":10,"from":"available","to":"sold"})");
  EXPECT_EQ(rules(log.verify()), Rules{"after_deletion"});
}

TEST(Verify, PetStatusFollowsTheLifeCycle) {
  Log log;
  a_pet(log);
  log.add("p", "pet.status_changed", 10, 2, R"({"id":10,"from":"available","to":"sold"})");
  log.add("p", "pet.status_changed", 10, 3, R"({"id":10,"from":"sold","to":"available"})");
  log.add("p", "pet.status_changed", 10, 4, R"({"id":10,"from":"pending","to":"sold"})");
  log.add("p", "pet.updated", 10, 5, R"({"id":10,"name":"Rex","categoryId":3,"status":"pending"})");
  EXPECT_EQ(rules(log.verify()), (Rules{"illegal_transition", "status_mismatch", "illegal_transition"}));
}

TEST(Verify, StockIsNeverNegativeNorReservedTwice) {
  Log log;
  log.add("i", "inventory.tracked", 10, 1, R"({"petId":10,"petStatus":"available","petVersion":1})");
  log.add("i", "inventory.stock_set", 10, 2, R"({"petId":10,"quantity":1})");
  log.add("o", "order.placed", 20, 1, R"({"id":20,"petId":10,"quantity":2})");
  log.add("i", "inventory.reserved", 10, 3, R"({"petId":10,"orderId":20,"quantity":2})");
  log.add("i", "inventory.reserved", 10, 4, R"({"petId":10,"orderId":20,"quantity":2})");
  log.add("o", "order.reserved", 20, 2, R"({"id":20,"petId":10,"quantity":2})");
  EXPECT_EQ(rules(log.verify()),
            (Rules{"negative_stock", "reserved_twice", "negative_stock", "decided_twice"}));
}

TEST(Verify, AReservationIsSettledOnce) {
  Log log;
  a_reserved_order(log);
  log.add("o", "order.cancelled", 20, 3, R"({"id":20,"petId":10,"quantity":2})");
  log.add("i", "inventory.released", 10, 4, R"({"petId":10,"orderId":20,"quantity":2})");
  log.add("i", "inventory.released", 10, 5, R"({"petId":10,"orderId":20,"quantity":2})");
  log.add("i", "inventory.consumed", 10, 6, R"({"petId":10,"orderId":21,"quantity":1})");
  EXPECT_EQ(rules(log.verify()),
            (Rules{"settled_twice", "settled_without_reservation", "settled_twice", "unknown_order"}));
}

// The answer binds the outcome: an outcome of an id or a time of its own is
// not the event every replica records.
TEST(Verify, AnOrdersOutcomeIsTheEventItsAnswerBinds) {
  Log log;
  auto& outcome = a_reserved_order(log);
  EXPECT_EQ(rules(log.verify()), Rules{});
  for (auto& h : outcome.headers) {
    if (h.name == "ce_id") {
      h.value = events::new_event_id();
    }
  }
  EXPECT_EQ(rules(log.verify()), Rules{"outcome_not_the_answers"});
}

TEST(Verify, UnansweredOrdersAreListedAndTooOldOnesAreViolations) {
  Log log;
  log.add("o", "order.placed", 20, 1, R"({"id":20,"petId":10,"quantity":2})");
  auto r = log.verify();
  EXPECT_EQ(rules(r), Rules{});
  ASSERT_EQ(r.pending.size(), 1U);
  EXPECT_EQ(r.pending[0].id, 20);
  EXPECT_EQ(r.pending[0].age, std::chrono::milliseconds(999'000));
  EXPECT_EQ(rules(log.verify(std::chrono::seconds(60))), Rules{"unresolved_order"});
  EXPECT_EQ(rules(log.verify(std::chrono::seconds(1000))), Rules{});
}

std::vector<std::string> owed(const VerifyReport& r) {
  std::vector<std::string> out;
  out.reserve(r.steps.size());
  for (const auto& step : r.steps) {
    out.emplace_back(std::string(rule_of(step.what)) + " " + std::to_string(step.subject) + " since " +
                     step.since.str());
  }
  return out;
}

// A cancelled order's reservation goes back, a completed one's leaves the
// stock, and a new pet is tracked: each is owed from the event that calls
// for it, listed while young and a violation past the pending age.
TEST(Verify, StepsTheInventoryOwesAreListedAndTooOldOnesAreViolations) {
  Log log;
  a_pet(log);      // p/0@0: tracked below
  a_pet(log, 11);  // p/0@1: never tracked
  log.add("i", "inventory.tracked", 10, 1, R"({"petId":10,"petStatus":"available","petVersion":1})");
  log.add("i", "inventory.stock_set", 10, 2, R"({"petId":10,"quantity":5})");
  for (const std::int64_t order : {20, 21, 22, 23}) {
    const auto o = std::to_string(order);
    log.add("o", "order.placed", order, 1, R"({"id":)" + o + R"(,"petId":10,"quantity":1})");
    log.add("i", "inventory.reserved", 10, order - 17, R"({"petId":10,"orderId":)" + o + R"(,"quantity":1})");
    log.add("o", "order.reserved", order, 2, R"({"id":)" + o + R"(,"petId":10,"quantity":1})");
  }
  log.add("o", "order.cancelled", 20, 3, R"({"id":20,"petId":10,"quantity":1})");  // released below
  log.add("o", "order.cancelled", 21, 3, R"({"id":21,"petId":10,"quantity":1})");  // o/0@9: never
  const auto shipped = R"(,"petId":10,"quantity":1,"shipDate":"2026-11-23T00:00:00Z"})";
  log.add("o", "order.completed", 22, 3, std::string(R"({"id":22)") + shipped);  // consumed below
  log.add("o", "order.completed", 23, 3, std::string(R"({"id":23)") + shipped);  // o/0@11: never
  log.add("i", "inventory.released", 10, 7, R"({"petId":10,"orderId":20,"quantity":1})");
  log.add("i", "inventory.consumed", 10, 8, R"({"petId":10,"orderId":22,"quantity":1})");

  const auto r = log.verify();
  EXPECT_EQ(rules(r), Rules{});
  EXPECT_EQ(owed(r), (std::vector<std::string>{"stock_not_released 21 since o/0@9",
                                               "stock_not_consumed 23 since o/0@11",
                                               "pet_not_tracked 11 since p/0@1"}));
  EXPECT_EQ(r.steps[0].age, std::chrono::milliseconds(999'000));
  EXPECT_EQ(rules(log.verify(std::chrono::seconds(60))),
            (Rules{"stock_not_released", "stock_not_consumed", "pet_not_tracked"}));
  EXPECT_EQ(rules(log.verify(std::chrono::seconds(1000))), Rules{});
}

TEST(Verify, AnOrderOutcomeNeedsTheInventorysRecord) {
  Log log;
  log.add("o", "order.placed", 20, 1, R"({"id":20,"petId":10,"quantity":2})");
  log.add("o", "order.rejected", 20, 2, R"({"id":20,"petId":10,"quantity":2,"reason":"insufficient_stock"})");
  log.add("o", "order.completed", 20, 3,
          R"({"id":20,"petId":10,"quantity":2,"shipDate":"2026-11-23T00:00:00Z"})");
  EXPECT_EQ(rules(log.verify()), (Rules{"illegal_transition", "outcome_without_inventory"}));
}

TEST(Verify, IdsAreUniqueAcrossAggregates) {
  Log log;
  log.add("c", "category.created", 10, 1, R"({"id":10,"name":"Dogs"})");
  a_pet(log, 10);
  EXPECT_EQ(rules(log.verify()), Rules{"id_reused"});
}

TEST(Verify, EveryRecordIsACloudEventOfTheContract) {
  Log log;
  a_pet(log);
  log.messages().back().value = R"({"id":10,"name":"Rex","categoryId":3,"status":"lost"})";
  a_pet(log, 11);
  log.messages().back().headers[0].value = "0.3";  // ce_specversion
  a_pet(log, 12);
  log.messages().back().partition = 5;
  a_pet(log, 13);
  log.messages().back().key = "14";
  log.add("o", "pet.created", 15, 1, R"({"id":15,"name":"Rex","categoryId":3,"status":"available"})");
  a_pet(log, 16);
  log.messages().back().value = R"({"id":16,"name":"Rex","categoryId":3,"status":"available","extra":1})";
  a_pet(log, 17);
  log.messages().back().value = "{\"id\":17,\"name\":\"\xff\"}";
  a_pet(log, 18);
  log.messages().back().headers.pop_back();  // content-type
  a_pet(log, 19);
  log.messages().back().headers.push_back(log.messages().back().headers.front());
  a_pet(log, 20);
  log.messages().back().headers[1].value = "not-a-uuid";
  const auto r = log.verify();
  EXPECT_EQ(rules(r), (Rules{"bad_data", "bad_header", "wrong_partition", "bad_header", "wrong_topic",
                             "bad_data", "bad_data", "bad_header", "bad_header", "bad_header"}));
  EXPECT_EQ(r.findings[7].detail, "headers /: lacks the required member content-type");
  EXPECT_EQ(r.findings[9].detail, "headers /ce_id: is not a UUID");
  EXPECT_EQ(r.events.count(kind("pet")), 0U);
}

// Key management (docs/events.md): issued first, nothing after revocation,
// each event as the admin API writes it.
constexpr const char* kKeyId = "0123456789abcdef";
constexpr const char* kDigest = "0123456789abcdefaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
constexpr const char* kPro =
    R"("plan":"pro","perMinute":300,"perDay":10000,"minuteWindowSeconds":60,"dayWindowSeconds":86400)";

TEST(Verify, KeyManagementFollowsTheKeysLifeCycle) {
  Log log;
  log.add("k", "apikey.issued", kKeyId, 1,
          R"({"keyId":")" + std::string(kKeyId) + R"(","digest":")" + kDigest + R"(",)" + kPro +
              R"(,"name":"a"})");
  log.add("k", "apikey.replanned", kKeyId, 2, R"({"keyId":")" + std::string(kKeyId) + R"(",)" + kPro + "}");
  log.add("k", "apikey.revoked", kKeyId, 3, R"({"keyId":")" + std::string(kKeyId) + R"("})");
  EXPECT_EQ(rules(log.verify()), Rules{});
  EXPECT_EQ(log.verify().events.at(kind("apikey")), 3);

  log.add("k", "apikey.replanned", kKeyId, 4, R"({"keyId":")" + std::string(kKeyId) + R"(",)" + kPro + "}");
  EXPECT_EQ(rules(log.verify()), Rules{"after_revocation"});
}

TEST(Verify, TheDataNamesTheSubjectInItsKindsMember) {
  Log log;
  log.add("p", "pet.created", 10, 1, R"({"id":11,"name":"Rex","categoryId":3,"status":"available"})");
  log.add("i", "inventory.stock_set", 12, 1, R"({"petId":13,"quantity":5})");
  const auto r = log.verify();
  ASSERT_EQ(rules(r), (Rules{"bad_data", "bad_data"}));
  EXPECT_EQ(r.findings[0].detail, "data.id is not the subject");
  EXPECT_EQ(r.findings[1].detail, "data.petId is not the subject");
}

TEST(Verify, KeyEventsMustNameTheirKeyAndBeWhatTheAdminApiWrites) {
  Log log;
  // Version 1 is not an issue; a fixed plan with other limits; a subject
  // that is not a key id; data naming another key.
  log.add("k", "apikey.revoked", "00000000000000aa", 1, R"({"keyId":"00000000000000aa"})");
  log.add(
      "k", "apikey.issued", kKeyId, 1,
      R"({"keyId":")" + std::string(kKeyId) + R"(","digest":")" + kDigest +
          R"(","plan":"pro","perMinute":301,"perDay":10000,"minuteWindowSeconds":60,"dayWindowSeconds":86400,"name":""})");
  log.add("k", "apikey.revoked", "42", 1, R"({"keyId":"0123456789abcdef"})");
  log.add("k", "apikey.revoked", "00000000000000bb", 2, R"({"keyId":"00000000000000cc"})");
  EXPECT_EQ(rules(log.verify()), (Rules{"creation_not_first", "undecodable", "bad_header", "bad_data"}));
}

}  // namespace
}  // namespace petstore::audit
