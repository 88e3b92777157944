#include "es/idempotency.h"

#include <spdlog/spdlog.h>

#include "error/api_error.h"
#include "error/codes.h"
#include "events/envelope.h"

namespace petstore::es {
namespace {

// KEYS[1] record; ARGV: token, fingerprint, proposed id, lease ms, ttl ms.
constexpr std::string_view kBegin = R"(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'fp', 'state', 'until', 'id', 'status', 'body', 'location', 'etag')
if not h[1] then
  redis.call('HSET', KEYS[1], 'fp', ARGV[2], 'state', 'pending', 'token', ARGV[1],
             'until', now + tonumber(ARGV[4]), 'id', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return {'fresh', ARGV[3]}
end
if h[1] ~= ARGV[2] then
  return {'mismatch'}
end
if h[2] == 'done' then
  return {'done', h[4], h[5], h[6], h[7], h[8]}
end
if tonumber(h[3]) > now then
  return {'busy', tostring(tonumber(h[3]) - now)}
end
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'until', now + tonumber(ARGV[4]))
return {'resumed', h[4]}
)";

// KEYS[1]; ARGV: token, status, body, location, etag, ttl ms.
constexpr std::string_view kComplete = R"(
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[2], 'body', ARGV[3],
           'location', ARGV[4], 'etag', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
)";

constexpr std::string_view kAbandon = R"(
local h = redis.call('HMGET', KEYS[1], 'token', 'state')
if h[1] == ARGV[1] and h[2] == 'pending' then
  return redis.call('DEL', KEYS[1])
end
return 0
)";

std::int64_t to_int(const redisReply& r) {
  return redis::as_integer(r);
}

}  // namespace

IdempotencyStore::IdempotencyStore(redis::Pool& pool, std::chrono::milliseconds lease, std::chrono::hours ttl)
    : pool_(pool), lease_(lease), ttl_(ttl), begin_(kBegin), complete_(kComplete), abandon_(kAbandon) {}

IdempotencyStore::Claim IdempotencyStore::begin(const std::string& key, const std::string& fingerprint,
                                                std::int64_t proposed_id) {
  Claim claim;
  claim.key = key;
  claim.token = events::new_event_id();
  const auto ttl_ms = std::to_string(std::chrono::milliseconds(ttl_).count());
  const auto reply = pool_.run_idempotent([&](redis::Connection& c) {
    return begin_.run(
        c, {key},
        {claim.token, fingerprint, std::to_string(proposed_id), std::to_string(lease_.count()), ttl_ms});
  });
  const auto& r = redis::expect_ok(reply);
  const auto verdict = redis::as_string(*r.element[0]);
  if (verdict == "mismatch") {
    throw ApiException(ApiError(422, codes::kIdempotencyKeyReused,
                                "this Idempotency-Key was already used with a different request"));
  }
  if (verdict == "busy") {
    const auto ms_left = to_int(*r.element[1]);
    throw ApiException(ApiError(409, codes::kRequestInProgress,
                                "a request with this Idempotency-Key is still being processed")
                           .retry_after(static_cast<int>((ms_left + 999) / 1000)));
  }
  claim.reserved_id = to_int(*r.element[1]);
  if (verdict == "done") {
    claim.outcome = Outcome::Replay;
    claim.replay.status = static_cast<int>(to_int(*r.element[2]));
    claim.replay.body = std::string(redis::as_string(*r.element[3]));
    claim.replay.location = std::string(redis::as_string(*r.element[4]));
    claim.replay.etag = std::string(redis::as_string(*r.element[5]));
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
    spdlog::warn("idempotency {}: abandon failed ({}); the lease will expire", claim.key, e.what());
  }
}

}  // namespace petstore::es
