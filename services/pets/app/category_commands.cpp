#include "pets/app/category_commands.h"

#include <chrono>

#include "es/errc.h"
#include "pets/domain/errors.h"

namespace petstore::pets {
namespace {

const Category& existing(const CategoryWriter::Current& current, std::int64_t id,
                         const Precondition& precondition) {
  if (!current.state.category) {
    throw DomainError(DomainError::Kind::NotFound, codes::kCategoryNotFound,
                      "category " + std::to_string(id) + " does not exist");
  }
  precondition(current.version);
  return *current.state.category;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

CategoryCommands::CategoryCommands(CategoryWriter& writer, WritePath& write, AdmissionWindow window,
                                   Relay relay)
    : writer_(writer), write_(write), window_(window), relay_(std::move(relay)) {}

Category CategoryCommands::answer(const CategoryWriter::Outcome& outcome) {
  if (!outcome.state.category) {  // a repeated create whose category has been deleted since
    throw DomainError(
        DomainError::Kind::NotFound, codes::kCategoryNotFound,
        "category " + std::to_string(outcome.id) + ", created by this request, has been deleted");
  }
  write_.apply_own(outcome);
  return *outcome.state.category;  // pet_count is not part of the answer
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

void CategoryCommands::admit_here(std::int64_t id, std::int64_t pet_id, std::int64_t pet_version) {
  std::unique_lock lock(admitting_);
  auto& slot = waiting_[id];
  if (!slot) {
    slot = std::make_shared<Admissions>();
  }
  const auto mine = slot;
  mine->pets.push_back({pet_id, pet_version});
  admitted_.wait(lock, [&] { return mine->done || !appending_.contains(id); });
  if (!mine->done) {  // the first of its batch to find the category free: it appends them all
    appending_.insert(id);
    waiting_.erase(id);
    lock.unlock();
    try {
      write_.apply_own(
          writer_.execute(id, [&](const CategoryWriter::Current& current) -> std::optional<Event> {
            return decide_admit_pets(current.state, id, mine->pets);
          }));
    } catch (...) {
      mine->failed = std::current_exception();
    }
    lock.lock();
    mine->done = true;
    appending_.erase(id);
    admitted_.notify_all();
  }
  if (mine->failed) {
    std::rethrow_exception(mine->failed);
  }
}

void CategoryCommands::admit(std::int64_t id, std::int64_t pet_id, std::int64_t pet_version) {
  try {
    admit_here(id, pet_id, pet_version);
  } catch (const es::Error& e) {
    if (e.code() != es::Errc::NotOwner || e.owner_hint().empty()) {
      throw;
    }
    relay_(e.owner_hint(), id, pet_id, pet_version);
  }
}

void CategoryCommands::remove(std::int64_t id, const Precondition& precondition) {
  const auto outcome =
      writer_.execute(id, [&](const CategoryWriter::Current& current) -> std::optional<Event> {
        existing(current, id, precondition);
        // Decided under the partition's hold, so no pet is admitted meanwhile.
        // The read model, brought to the end of the pets topic (past any open
        // transaction), holds every pet that has landed; a pet admitted before
        // that has not may still land until the window is past.
        write_.catch_up().topic_end(write_.topics().pets);
        const PetsSeen pets{[&](const auto& admitted) { return write_.read().first_not_applied(admitted); },
                            [&] { return write_.read().pets_in(id); }};
        return decide_delete_category(current.state, pets, now_ms(), window_);
      });
  write_.apply_own(outcome);
}

}  // namespace petstore::pets
