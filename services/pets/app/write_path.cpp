#include "pets/app/write_path.h"

#include "embedded/claims.lua.h"
#include "log/log.h"
#include "pets/domain/errors.h"

namespace petstore::pets {

WritePath::WritePath(redis::Pool& pool, es::CatchUp& catch_up, ReadModel& read, PetsProjection& projection,
                     PetKeys keys, Topics topics, Settings settings)
    : pool_(pool),
      catch_up_(catch_up),
      read_(read),
      own_(pool, catch_up, projection),
      keys_(std::move(keys)),
      topics_(std::move(topics)),
      settings_(settings),
      claim_(kClaimsLua) {}

std::string WritePath::claim_category(std::int64_t category_id) {
  auto token = events::new_event_id();
  const auto claim = [&] {
    return pool().run_idempotent([&](redis::Connection& c) {
      return std::string(redis::as_string(
          redis::expect_ok(claim_.run(c, {keys_.category(category_id), keys_.claims(category_id)},
                                      {token, std::to_string(settings_.lease.count())}))));
    });
  };
  auto verdict = claim();
  if (verdict == "missing") {
    // Not in the read model: maybe in the log, not applied yet (the
    // projection was refused, Redis lost it, or an open transaction holds
    // it back from readers). Unknown only once the read model holds the
    // whole categories topic; Lagging if it cannot.
    catch_up_.topic_end(topics_.categories);
    verdict = claim();
  }
  if (verdict == "missing" || verdict == "deleted") {
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
    pool().run_idempotent([&](redis::Connection& c) {
      return c.command({"ZREM", keys_.claims(category_id), token});
    });
  } catch (const std::exception& e) {
    log::warn("claim on category {} not released ({}); it expires with its lease", category_id, e.what());
  }
}

void WritePath::apply_own(const PetWriter::Outcome& outcome, std::int64_t category_id,
                          const std::string& claim_token) {
  if (claim_token.empty()) {
    own_.apply(outcome);
    return;
  }
  own_.apply(outcome, {{"ZREM", keys_.claims(category_id), claim_token}});
}

void WritePath::apply_own(const CategoryWriter::Outcome& outcome) {
  own_.apply(outcome);
}

}  // namespace petstore::pets
