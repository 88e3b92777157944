#include "verify.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "orders/domain/upstream.h"

namespace petstore::audit {

namespace {

// A UUID's 32 hex digits as two 64-bit halves (check_record has already
// refused anything else).
std::pair<std::uint64_t, std::uint64_t> uuid_bits(std::string_view id) {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  int n = 0;
  for (const char c : id) {
    if (c == '-') {
      continue;
    }
    const auto nibble = static_cast<std::uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    auto& half = n < 16 ? hi : lo;
    half = (half << 4) | nibble;
    ++n;
  }
  return {hi, lo};
}

// Folds `s` into the digest `h`, eight bytes to a multiply: verify runs it
// over every record, and std::hash (murmur) cost about twice as much.
std::uint64_t fold_bytes(std::uint64_t h, std::string_view s) {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  // The length goes in too, so "a" then "bc" is not "ab" then "c".
  h = (h ^ tail ^ (static_cast<std::uint64_t>(s.size()) << 56)) * kMul;
  return h ^ (h >> 29);
}

// A digest of everything a record holds (key, value, headers), to tell a
// byte-for-byte repeat from another record with the same ce_id.
std::uint64_t record_digest(const kafka::Message& m) {
  std::uint64_t h = fold_bytes(0, m.key);
  h = fold_bytes(h, m.value);
  for (const auto& header : m.headers) {
    h = fold_bytes(h, header.name);
    h = fold_bytes(h, header.value);
  }
  return h;
}

}  // namespace

namespace {

// Each owed step's rule and words, in PendingStep::What's order.
struct StepText {
  std::string_view rule;
  std::string_view words;
};
constexpr std::array<StepText, 3> kStepTexts{{
    {"stock_not_released", "the order was cancelled holding a reservation the inventory has not released"},
    {"stock_not_consumed", "the order was completed and the inventory has not consumed its reservation"},
    {"pet_not_tracked", "the pet was created and the inventory has not tracked it"},
}};

}  // namespace

std::string_view rule_of(PendingStep::What what) {
  return kStepTexts.at(static_cast<std::size_t>(what)).rule;
}

std::string_view describe(PendingStep::What what) {
  return kStepTexts.at(static_cast<std::size_t>(what)).words;
}

Verifier::Verifier(const Topics& topics, VerifyOptions options) : topics_(topics), options_(options) {
  for (const auto* module : check_modules()) {
    checkers_.push_back(module->make_checker(saga_));
  }
}

Verifier::~Verifier() = default;

void Verifier::reserve(std::int64_t records) {
  const auto n = static_cast<size_t>(std::max<std::int64_t>(records, 0));
  event_ids_.reserve(n);
  versions_.reserve(n / 2);
  creators_.reserve(n / 4);
}

void Verifier::add(const kafka::Message& m, std::int64_t timestamp_ms) {
  ++report_.records;
  auto& out = report_.findings;
  // The data's document takes its memory from a buffer on the stack: a
  // record's data is a few hundred bytes (a larger one takes heap chunks).
  std::array<char, 4096> buffer;  // NOLINT(cppcoreguidelines-pro-type-member-init): the pool's memory
  rapidjson::MemoryPoolAllocator<> pool(buffer.data(), buffer.size());
  rapidjson::Document data(&pool);
  const auto event = check_record(m, timestamp_ms, topics_, schemas_, out, data);
  if (!event) {
    return;
  }
  const auto& e = *event;
  auto [it, first] = versions_.try_emplace({e.kind, e.subject}, Latest{});
  if (first) {
    ++report_.aggregates[e.kind];
  }
  auto& latest = it->second;
  const auto digest = record_digest(m);
  // The aggregate's latest event again, byte for byte, before its next one:
  // one Produce written twice. The idempotent producer retries a request
  // whose answer it lost, and Kafka drops the repeat by its sequence
  // number, within one producer id: a repeat is still tolerated as below,
  // for logs written by any producer. Every reader
  // applies an aggregate's version once, and CloudEvents lets consumers
  // take events of the same source and id as duplicates: the state that
  // follows from the log is the same, so it is reported, not a violation.
  // A repeat that differs in any byte, or comes after the aggregate's next
  // event, still is (docs/audit.md).
  if (!first && e.version == latest.version && digest == latest.digest) {
    report_.copies.push_back({e.at, latest.offset, e.id, e.subject});
    return;
  }
  ++report_.events[e.kind];
  ++types_[e.type];
  if (!event_ids_.insert(uuid_bits(e.id))) {
    report(out, e, "duplicate_event_id", "ce_id " + e.id + " was used before");
  }

  auto& last = latest.version;
  if (e.version <= last) {
    report(out, e, "duplicate_version",
           "version " + std::to_string(e.version) + " after version " + std::to_string(last));
    return;
  }
  if (e.version != last + 1) {
    report(out, e, "sequence_gap",
           "version " + std::to_string(e.version) + " follows version " + std::to_string(last));
  }
  latest = {e.version, e.at.offset, digest};

  // Ids of the store are unique across the kinds that create them.
  if (e.version == 1 && info(e.kind).creates_id) {
    const auto [creator, fresh] = creators_.try_emplace(e.subject, e.kind);
    if (!fresh && creator->second != e.kind) {
      report(
          out, e, "id_reused",
          std::string("id already names a ") + to_string(creator->second) + ", not a " + to_string(e.kind));
    }
  }
  checkers_.at(info(e.kind).module)->on_event(e, out);
}

VerifyReport Verifier::finish() {
  report_.types.insert(types_.begin(), types_.end());
  auto& out = report_.findings;
  const auto now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(options_.now.time_since_epoch()).count();
  for (const auto& [id, o] : saga_.orders) {
    const auto finding = [&, id = id](const Position& at, std::string rule, std::string detail) {
      out.push_back({at, "", id, std::move(rule), std::move(detail)});
    };
    const int answers = o.inventory_reservations + o.inventory_refusals;
    if (!o.placed) {
      finding(o.inventory_at, "unknown_order", "the inventory recorded an order the log never placed");
      continue;
    }
    if (answers > 1) {
      finding(
          o.inventory_at, "decided_twice",
          "the inventory answered order " + std::to_string(id) + " " + std::to_string(answers) + " times");
    }
    if (o.inventory_releases + o.inventory_consumptions > 1) {
      finding(o.inventory_at, "settled_twice",
              "the inventory settled order " + std::to_string(id) + " more than once");
    }
    if ((o.status == "reserved" || o.status == "completed") && o.inventory_reservations == 0) {
      finding(o.placed_at, "outcome_without_inventory",
              "the order is " + o.status + " but no stock was reserved");
    }
    if (o.status == "rejected" && o.inventory_refusals == 0) {
      finding(o.placed_at, "outcome_without_inventory",
              "the order was rejected but the inventory refused nothing");
    }
    // The answer binds the outcome, and every replica that records it
    // records one event: the answer's, named after it.
    if (!o.outcome_id.empty() && !o.answer_id.empty() &&
        (o.outcome_id != orders::outcome_event_id(o.answer_id) || o.outcome_time != o.answer_time)) {
      finding(o.outcome_at, "outcome_not_the_answers",
              "the order's outcome " + o.outcome_id + " is not the event the inventory's answer " +
                  o.answer_id + " binds");
    }
    // A cancelled order's reservation goes back to the stock, a completed
    // one's leaves it: the inventory owes that step once the order settled.
    const bool cancelled = o.status == "cancelled";
    if ((cancelled || o.status == "completed") && o.inventory_reservations > 0 &&
        (cancelled ? o.inventory_releases : o.inventory_consumptions) == 0) {
      owed(cancelled ? PendingStep::What::Release : PendingStep::What::Consumption, id, o.settled_at,
           o.settled_timestamp_ms);
    }
    if (o.status == "placed") {
      const std::chrono::milliseconds age(now_ms - o.placed_timestamp_ms);
      report_.pending.push_back({id, o.placed_at, o.placed_time, age});
      if (options_.max_pending_age && age > *options_.max_pending_age) {
        finding(o.placed_at, "unresolved_order",
                "placed " + std::to_string(age.count() / 1000) + " s ago and still not reserved or rejected");
      }
    }
  }
  for (const auto& [id, pet] : saga_.pets) {
    if (pet.created && !pet.tracked) {
      owed(PendingStep::What::Tracking, id, pet.created_at, pet.created_timestamp_ms);
    }
  }
  return std::move(report_);
}

void Verifier::owed(PendingStep::What what, std::int64_t subject, const Position& since,
                    std::int64_t since_ms) {
  const auto now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(options_.now.time_since_epoch()).count();
  const std::chrono::milliseconds age(now_ms - since_ms);
  report_.steps.push_back({what, subject, since, age});
  if (options_.max_pending_age && age > *options_.max_pending_age) {
    report_.findings.push_back(
        {since, "", subject, std::string(rule_of(what)),
         std::string(describe(what)) + " for " + std::to_string(age.count() / 1000) + " s"});
  }
}

}  // namespace petstore::audit
