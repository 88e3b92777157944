#include "es/idempotency.h"

#include "embedded/idempotency_abandon.lua.h"
#include "embedded/idempotency_begin.lua.h"
#include "embedded/idempotency_complete.lua.h"
#include "es/errc.h"
#include "events/envelope.h"
#include "log/log.h"

namespace petstore::es {
namespace {

std::int64_t to_int(const redisReply& r) {
  return redis::as_integer(r);
}

}  // namespace

IdempotencyStore::IdempotencyStore(redis::Pool& pool, std::chrono::milliseconds lease, std::chrono::hours ttl)
    : pool_(pool),
      lease_(lease),
      ttl_(ttl),
      begin_(kIdempotencyBeginLua),
      complete_(kIdempotencyCompleteLua),
      abandon_(kIdempotencyAbandonLua) {}

IdempotencyStore::Claim IdempotencyStore::begin(const std::string& key, const std::string& fingerprint) {
  Claim claim;
  claim.key = key;
  claim.token = events::new_event_id();
  const auto ttl_ms = std::to_string(std::chrono::milliseconds(ttl_).count());
  const auto reply = pool_.run_idempotent([&](redis::Connection& c) {
    return begin_.run(c, {key}, {claim.token, fingerprint, std::to_string(lease_.count()), ttl_ms});
  });
  const auto& r = redis::expect_ok(reply);
  const auto verdict = redis::as_string(*r.element[0]);
  if (verdict == "mismatch") {
    throw Error(Errc::IdempotencyKeyReused, "this Idempotency-Key was already used with a different request");
  }
  if (verdict == "busy") {
    const auto ms_left = to_int(*r.element[1]);
    throw Error(Errc::RequestInProgress, "a request with this Idempotency-Key is still being processed",
                static_cast<int>((ms_left + 999) / 1000));
  }
  if (verdict == "done") {
    claim.outcome = Outcome::Replay;
    claim.replay.status = static_cast<int>(to_int(*r.element[1]));
    claim.replay.body = std::string(redis::as_string(*r.element[2]));
    claim.replay.location = std::string(redis::as_string(*r.element[3]));
    claim.replay.etag = std::string(redis::as_string(*r.element[4]));
  } else {
    claim.outcome = verdict == "resumed" ? Outcome::Resumed : Outcome::Fresh;
  }
  return claim;
}

void IdempotencyStore::complete(const Claim& claim, const StoredResponse& response) {
  const auto ttl_ms = std::to_string(std::chrono::milliseconds(ttl_).count());
  pool_.run_idempotent([&](redis::Connection& c) {
    return complete_.run(c, {claim.key},
                         {claim.token, std::to_string(response.status), response.body, response.location,
                          response.etag, ttl_ms});
  });
}

void IdempotencyStore::abandon(const Claim& claim) noexcept {
  try {
    pool_.run_idempotent([&](redis::Connection& c) { return abandon_.run(c, {claim.key}, {claim.token}); });
  } catch (const std::exception& e) {
    log::warn("idempotency {}: abandon failed ({}); the lease will expire", claim.key, e.what());
  }
}

}  // namespace petstore::es
