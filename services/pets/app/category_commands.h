#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "pets/app/write_path.h"
#include "pets/app/writers.h"
#include "pets/domain/decide.h"
#include "pets/domain/pet.h"

namespace petstore::pets {

// The category use cases, on the categories topic's single writer
// (CategoryWriter; docs/consistency.md, "The category rule"). A pet joins
// a category through it (admit), before the pet's own event is decided, so
// the writer's fold orders every joining pet against the category's
// deletion: the delete waits out the pets admitted before it, and a pet
// admitted after it finds no category.
class CategoryCommands {
 public:
  // Hands an admission to the replica at `owner_url`, which owns the
  // category's partition; returns once it is appended there, and throws
  // as admit() does.
  using Relay = std::function<void(const std::string& owner_url, std::int64_t id, std::int64_t pet_id,
                                   std::int64_t pet_version)>;

  CategoryCommands(CategoryWriter& writer, WritePath& write, AdmissionWindow window, Relay relay);

  // `request`: as PetCommands::create.
  Category create(const CategoryFields& fields, const std::string& request);
  Category replace(std::int64_t id, const CategoryFields& fields, const Precondition& precondition);
  void remove(std::int64_t id, const Precondition& precondition);
  // Lets pet `pet_id` join category `id` by its event at `pet_version` or
  // later (422 unknown_category when there is none), here or, through the
  // relay, at the category's owner.
  void admit(std::int64_t id, std::int64_t pet_id, std::int64_t pet_version);
  // admit() where this replica owns the category (NotOwner otherwise).
  // The admissions asked for one category while its last is being
  // appended go together in its next event: a category's events are
  // appended one at a time, and every pet created in it asks.
  void admit_here(std::int64_t id, std::int64_t pet_id, std::int64_t pet_version);
  [[nodiscard]] const AdmissionWindow& window() const { return window_; }

 private:
  // The admissions waiting for one category's next event; its first
  // waiter appends them when the category's writer is free.
  struct Admissions {
    std::vector<PetAdmission> pets;
    bool done = false;
    std::exception_ptr failed;
  };
  Category answer(const CategoryWriter::Outcome& outcome);

  CategoryWriter& writer_;
  WritePath& write_;
  AdmissionWindow window_;
  Relay relay_;
  std::mutex admitting_;
  std::condition_variable admitted_;
  std::map<std::int64_t, std::shared_ptr<Admissions>> waiting_;  // by category: not begun yet
  std::set<std::int64_t> appending_;                             // categories with admissions on their way
};

}  // namespace petstore::pets
