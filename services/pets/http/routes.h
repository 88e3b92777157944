#pragma once

#include "es/idempotency.h"
#include "http/router.h"
#include "pets/app/category_commands.h"
#include "pets/app/pet_commands.h"
#include "pets/projection/read_model.h"

namespace petstore::pets {

// What the routes need; main wires it.
struct RouteDeps {
  PetCommands& pets;
  CategoryCommands& categories;
  ReadModel& read;
  es::IdempotencyStore& idempotency;
  const PetKeys& keys;
};

// The deprecated GET /pets/{petId}: since when (RFC 9745's epoch seconds),
// until when; docs/api.md gives both dates.
inline constexpr const char* kGetPetDeprecation = "@1790812800";
inline constexpr const char* kGetPetSunset = "Thu, 01 Jul 2027 00:00:00 GMT";

void add_pet_routes(http::Router& router, const RouteDeps& deps);
void add_category_routes(http::Router& router, const RouteDeps& deps);

}  // namespace petstore::pets
