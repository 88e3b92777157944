#include "pets/app/category_commands.h"

#include "embedded/close_category.lua.h"
#include "es/errc.h"
#include "kafka/handles.h"
#include "log/log.h"
#include "pets/domain/decide.h"
#include "pets/domain/errors.h"

namespace petstore::pets {
namespace {

[[noreturn]] void in_use(std::int64_t id, const std::string& why) {
  throw DomainError(DomainError::Kind::Conflict, codes::kCategoryInUse,
                    "category " + std::to_string(id) + " " + why);
}

[[noreturn]] void not_found(std::int64_t id) {
  throw DomainError(DomainError::Kind::NotFound, codes::kCategoryNotFound,
                    "category " + std::to_string(id) + " does not exist");
}

const Category& existing(const CategoryWriter::Current& current, std::int64_t id,
                         const Precondition& precondition) {
  if (!current.state) {
    not_found(id);
  }
  precondition(current.version);
  return *current.state;
}

}  // namespace

CategoryCommands::CategoryCommands(CategoryWriter& writer, WritePath& write)
    : writer_(writer), write_(write), close_(kCloseCategoryLua) {}

Category CategoryCommands::answer(const CategoryWriter::Outcome& outcome) {
  if (!outcome.state) {  // a repeated create whose category has been deleted since
    throw DomainError(
        DomainError::Kind::NotFound, codes::kCategoryNotFound,
        "category " + std::to_string(outcome.id) + ", created by this request, has been deleted");
  }
  write_.apply_own(outcome);
  return *outcome.state;  // pet_count is not part of the answer
}

Category CategoryCommands::create(const CategoryFields& fields, const std::string& request) {
  return answer(writer_.create(request, [&](std::int64_t id) { return decide_create_category(id, fields); }));
}

Category CategoryCommands::replace(std::int64_t id, const CategoryFields& fields,
                                   const Precondition& precondition) {
  return answer(writer_.execute(id, [&](const CategoryWriter::Current& current) -> std::optional<Event> {
    return decide_replace_category(existing(current, id, precondition), fields);
  }));
}

void CategoryCommands::close(std::int64_t id, std::chrono::milliseconds lease_ms) {
  const auto lease = std::to_string(lease_ms.count());
  const auto reply = write_.pool().run_idempotent([&](redis::Connection& c) {
    return close_.run(c, {write_.keys().category(id), write_.keys().claims(id), write_.keys().pet_counts()},
                      {lease, "0", std::to_string(id)});
  });
  const auto& r = redis::expect_ok(reply);
  const auto verdict = redis::as_string(*r.element[0]);
  if (verdict == "missing") {  // the log has it, the read model not yet (or no more)
    throw es::Error(es::Errc::Lagging, "the read model does not hold category " + std::to_string(id) +
                                           " yet; nothing was written, retry");
  }
  if (verdict == "claimed") {
    in_use(id, "has pets being added to it right now");
  }
  if (verdict == "in_use") {
    in_use(id, "is still used by " + std::to_string(redis::as_integer(*r.element[1])) + " pet(s)");
  }
}

void CategoryCommands::reopen(std::int64_t id) noexcept {
  try {
    write_.pool().run_idempotent([&](redis::Connection& c) {
      return close_.run(c, {write_.keys().category(id), write_.keys().claims(id), write_.keys().pet_counts()},
                        {"0", "1", std::to_string(id)});
    });
  } catch (const std::exception& e) {
    log::warn("category {} stays closing until its lease ends: {}", id, e.what());
  }
}

void CategoryCommands::remove(std::int64_t id, const Precondition& precondition) {
  bool closed = false;
  try {
    const auto outcome =
        writer_.execute(id, [&](const CategoryWriter::Current& current) -> std::optional<Event> {
          auto category = existing(current, id, precondition);
          // Closed to new claims long enough to catch up and append (by Redis'
          // clock, which starts the mark later than this one does): the delete
          // is in the log before the mark ends.
          const auto& s = write_.settings();
          const auto append_by = std::chrono::steady_clock::now() + s.catch_up;
          close(id, s.catch_up + s.longest_append);
          closed = true;
          // A pet whose owner died after appending it is in the log but maybe
          // not in Redis: count on a read model that has the whole pets topic.
          write_.catch_up().topic_end(write_.topics().pets, append_by);
          category.pet_count = write_.read().require_category(id).pet_count;
          auto event = decide_delete_category(category);
          if (std::chrono::steady_clock::now() > append_by) {
            throw es::Error(es::Errc::Lagging,
                            "the read model took too long to catch up; nothing was written, retry");
          }
          return event;
        });
    closed = false;  // the delete is in the log: the mark stays until applied or run out
    write_.apply_own(outcome);
  } catch (const kafka::Unavailable& e) {
    // Reopen only when the delete surely is not in the log; otherwise the
    // closing mark runs out with its lease.
    if (closed && !e.possibly_persisted()) {
      reopen(id);
    }
    throw;
  } catch (...) {
    // Refused, or fenced (what a fenced owner appended counts for nobody).
    if (closed) {
      reopen(id);
    }
    throw;
  }
}

}  // namespace petstore::pets
