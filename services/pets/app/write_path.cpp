#include "app/write_path.h"

#include <spdlog/spdlog.h>

#include "domain/errors.h"
#include "embedded/claims.lua.h"
#include "error/api_error.h"
#include "error/codes.h"
#include "kafka/handles.h"

namespace petstore::pets {

WritePath::WritePath(es::EventLog& log, es::AggregateLock& locks, es::CatchUp& catch_up, redis::Pool& pool,
                     ReadModel& read, PetsProjection& projection, PetKeys keys, Topics topics,
                     std::chrono::milliseconds lease, std::chrono::milliseconds delivery_timeout)
    : log_(log),
      locks_(locks),
      catch_up_(catch_up),
      pool_(pool),
      read_(read),
      projection_(projection),
      keys_(std::move(keys)),
      topics_(std::move(topics)),
      lease_(lease),
      delivery_timeout_(delivery_timeout),
      claim_(kClaimsLua) {}

const std::string& WritePath::topic_for(const Event& e) const {
  return is_category_event(e) ? topics_.categories : topics_.pets;
}

es::AggregateLock::Held WritePath::lock(const std::string& lock_key, const std::string& topic,
                                        std::int64_t id) {
  auto held = locks_.acquire(lock_key);
  if (held.previous_holder_died) {
    try {
      catch_up_aggregate(topic, id, held.lease_end);
    } catch (...) {
      locks_.poison(held);
      throw;
    }
  }
  return held;
}

void WritePath::catch_up_aggregate(const std::string& topic, std::int64_t id,
                                   es::CatchUp::Deadline deadline) {
  catch_up_.partition_end(topic, log_.partition_of(topic, id), deadline);
}

std::string WritePath::claim_category(std::int64_t category_id) {
  auto token = events::new_event_id();
  const auto verdict = pool_.run_idempotent([&](redis::Connection& c) {
    return std::string(redis::as_string(
        redis::expect_ok(claim_.run(c, {keys_.category(category_id), keys_.claims(category_id)},
                                    {token, std::to_string(lease_.count())}))));
  });
  if (verdict == "missing") {
    throw DomainError(DomainError::Kind::Unprocessable, codes::kUnknownCategory,
                      "categoryId " + std::to_string(category_id) + " does not name an existing category");
  }
  if (verdict == "closing") {
    throw DomainError(DomainError::Kind::Conflict, codes::kCategoryClosing,
                      "category " + std::to_string(category_id) + " is being deleted");
  }
  return token;
}

void WritePath::release_claim(std::int64_t category_id, const std::string& token) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) {
      return c.command({"ZREM", keys_.claims(category_id), token});
    });
  } catch (const std::exception& e) {
    spdlog::warn("claim on category {} not released ({}); it expires with its lease", category_id, e.what());
  }
}

std::string WritePath::commit(const Event& event, std::int64_t version, es::LockGuard* guard,
                              const std::string& claim_token) {
  const auto& topic = topic_for(event);
  // Margin for the delivery report to reach us after the broker's answer.
  constexpr auto kMargin = std::chrono::milliseconds(250);
  if (guard != nullptr &&
      std::chrono::steady_clock::now() + delivery_timeout_ + kMargin > guard->held().lease_end) {
    throw ApiException(ApiError(503, petstore::codes::kProjectionLagging,
                                "the read model took too long to catch up; nothing was written, retry")
                           .retry_after(1));
  }
  es::Appended appended;
  try {
    appended = log_.append(
        {topic, std::string(type_of(event)), aggregate_of(event), version, encode(event), kSchemaVersion});
  } catch (const kafka::Unavailable& e) {
    if (e.possibly_persisted() && guard != nullptr) {
      guard->mark_uncertain();
    }
    throw;
  }
  // The event is in the log: from here on, failing to apply it leaves the
  // read model behind, which the next lock holder must know about.
  try {
    const auto outcome = pool_.run_idempotent([&](redis::Connection& c) {
      return projection_.apply_own(c, event, version, appended.envelope.time, claim_token);
    });
    if (outcome == PetsProjection::Outcome::Behind) {
      catch_up_.through(topic, appended.position.partition, appended.position.offset);
    }
  } catch (...) {
    if (guard != nullptr) {
      guard->mark_uncertain();
    }
    throw;
  }
  return appended.envelope.time;
}

}  // namespace petstore::pets
