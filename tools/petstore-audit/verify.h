#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "audit_event.h"
#include "data_schema.h"
#include "kafka/consumer.h"
#include "kind_module.h"
#include "record.h"
#include "uuid_set.h"

namespace petstore::audit {

struct VerifyOptions {
  // A placed order with no answer from the inventory is listed as pending;
  // past this age it is also a violation (unset: listed only).
  std::optional<std::chrono::milliseconds> max_pending_age;
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

struct PendingOrder {
  std::int64_t id = 0;
  Position at;
  std::string placed_time;
  std::chrono::milliseconds age{0};
};

// A step of the saga the log owes: the inventory has yet to release a
// cancelled order's units, consume a completed one's, or track a new pet.
// Listed; past VerifyOptions::max_pending_age, a violation (rule_of).
struct PendingStep {
  enum class What { Release, Consumption, Tracking };
  What what = What::Release;
  std::int64_t subject = 0;  // the order, or the pet
  Position since;            // the event that made the step owed
  std::chrono::milliseconds age{0};
};
// stock_not_released, stock_not_consumed, pet_not_tracked.
std::string_view rule_of(PendingStep::What what);
// What is owed, in words: "the inventory has not released the order's units".
std::string_view describe(PendingStep::What what);

// A record that repeats an aggregate's latest event byte for byte (key,
// value, headers): a Produce the broker wrote twice. Not a violation; see
// Verifier::add.
struct Copy {
  Position at;
  std::int64_t original_offset = 0;  // same topic and partition
  std::string event_id;
  std::int64_t subject = 0;
};

struct VerifyReport {
  std::int64_t records = 0;
  std::map<Kind, std::int64_t> events;        // valid events per kind
  std::map<Kind, std::int64_t> aggregates;    // aggregates per kind
  std::map<std::string, std::int64_t> types;  // valid events per ce_type
  Findings findings;
  std::vector<Copy> copies;
  std::vector<PendingOrder> pending;
  std::vector<PendingStep> steps;
};

// Checks the invariants of docs/audit.md over a log read in any interleaving
// of partitions: per-aggregate rules run as records arrive (an aggregate
// lives in one partition, in order), rules across aggregates and topics run
// in finish(). It reads nothing but the records.
class Verifier {
 public:
  Verifier(const Topics& topics, VerifyOptions options);
  ~Verifier();
  Verifier(const Verifier&) = delete;
  Verifier& operator=(const Verifier&) = delete;

  // Sizes the tables for a log of about `records` records.
  void reserve(std::int64_t records);
  void add(const kafka::Message& m, std::int64_t timestamp_ms);
  VerifyReport finish();

 private:
  // Lists a step owed since `since` (a record at `since_ms`), and reports
  // it past the pending age.
  void owed(PendingStep::What what, std::int64_t subject, const Position& since, std::int64_t since_ms);

  const Topics& topics_;
  VerifyOptions options_;
  const SchemaRegistry& schemas_ = SchemaRegistry::contract();
  VerifyReport report_;
  SagaFacts saga_;                                      // filled by the checkers of the saga's kinds
  std::vector<std::unique_ptr<KindChecker>> checkers_;  // one a module (check_modules())

  struct AggregateKey {
    Kind kind;
    std::int64_t id;
    bool operator==(const AggregateKey&) const = default;
  };
  struct AggregateHash {
    size_t operator()(const AggregateKey& k) const noexcept {
      return std::hash<std::int64_t>()(k.id) * 31 + static_cast<size_t>(k.kind);
    }
  };
  // Each aggregate's latest event: its version, offset and record digest.
  struct Latest {
    std::int64_t version = 0;
    std::int64_t offset = 0;
    std::uint64_t digest = 0;
  };
  std::unordered_map<AggregateKey, Latest, AggregateHash> versions_;
  // Which kind created each id: ids are unique across pets, categories and orders.
  std::unordered_map<std::int64_t, Kind> creators_;
  // ce_ids seen, as 128-bit values (a UUID's 32 hex digits).
  UuidSet event_ids_;
  // Valid events per ce_type, moved into the report by finish().
  std::unordered_map<std::string, std::int64_t> types_;
};

}  // namespace petstore::audit
