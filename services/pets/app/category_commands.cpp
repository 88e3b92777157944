#include "app/category_commands.h"

#include <spdlog/spdlog.h>

#include "domain/decide.h"
#include "domain/errors.h"
#include "embedded/close_category.lua.h"
#include "kafka/handles.h"

namespace petstore::pets {
namespace {

[[noreturn]] void in_use(std::int64_t id, const std::string& why) {
  throw DomainError(DomainError::Kind::Conflict, codes::kCategoryInUse,
                    "category " + std::to_string(id) + " " + why);
}

}  // namespace

CategoryCommands::CategoryCommands(WritePath& write) : write_(write), close_(kCloseCategoryLua) {}

Category CategoryCommands::create(std::int64_t id, const CategoryFields& fields, bool resumed) {
  const auto event = decide_create_category(id, fields);
  if (resumed) {
    write_.catch_up_aggregate(write_.topics().categories, id);
    if (auto existing = write_.read().category(id)) {
      return *std::move(existing);
    }
  }
  write_.commit(event, 1, nullptr);
  return Category{id, event.name, event.description, 1, 0};
}

Category CategoryCommands::replace(std::int64_t id, const CategoryFields& fields,
                                   const Precondition& precondition) {
  es::LockGuard guard(write_.locks(),
                      write_.lock(write_.keys().category_lock(id), write_.topics().categories, id));
  auto category = write_.read().require_category(id);
  precondition(category.version);
  const auto event = decide_replace_category(category, fields);
  if (!event) {
    return category;
  }
  category.version += 1;
  write_.commit(*event, category.version, &guard);
  category.name = event->name;
  category.description = event->description;
  return category;
}

void CategoryCommands::close(std::int64_t id) {
  const auto lease = std::to_string(write_.lease().count());
  const auto reply = write_.pool().run_idempotent([&](redis::Connection& c) {
    return close_.run(c, {write_.keys().category(id), write_.keys().claims(id), write_.keys().pet_counts()},
                      {lease, "0", std::to_string(id)});
  });
  const auto& r = redis::expect_ok(reply);
  const auto verdict = redis::as_string(*r.element[0]);
  if (verdict == "missing") {  // deleted between our read and this step
    throw DomainError(DomainError::Kind::NotFound, codes::kCategoryNotFound,
                      "category " + std::to_string(id) + " does not exist");
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
    spdlog::warn("category {} stays closing until its lease ends: {}", id, e.what());
  }
}

void CategoryCommands::remove(std::int64_t id, const Precondition& precondition) {
  es::LockGuard guard(write_.locks(),
                      write_.lock(write_.keys().category_lock(id), write_.topics().categories, id));
  const auto before = write_.read().require_category(id);
  precondition(before.version);
  close(id);
  Category category;
  CategoryDeleted event;
  try {
    // A pet created by a replica that died after appending is in the log but
    // maybe not in Redis: decide on a read model that has the whole topic.
    write_.catch_up().topic_end(write_.topics().pets, guard.held().lease_end);
    category = write_.read().require_category(id);
    event = decide_delete_category(category);
  } catch (...) {
    reopen(id);
    throw;
  }
  try {
    write_.commit(event, category.version + 1, &guard);
  } catch (const kafka::Unavailable& e) {
    // Reopen only when the delete surely is not in the log; otherwise the
    // closing mark runs out with its lease.
    if (!e.possibly_persisted()) {
      reopen(id);
    }
    throw;
  }
}

}  // namespace petstore::pets
