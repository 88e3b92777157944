#pragma once

#include "es/idempotency.h"
#include "http/client_address.h"
#include "http/forwarder.h"
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
  const http::TrustedProxies& trusted;  // the peers whose admissions are heard
};

// The deprecated GET /pets/{petId}: since when (RFC 9745's epoch seconds),
// until when; docs/api.md gives both dates.
inline constexpr const char* kGetPetDeprecation = "@1790812800";
inline constexpr const char* kGetPetSunset = "Thu, 01 Jul 2027 00:00:00 GMT";

void add_pet_routes(http::Router& router, const RouteDeps& deps);
// Also POST /internal/categories/{categoryId}/admissions/{petId}/{petVersion},
// where a peer's pet command has this replica admit a pet to a category
// whose partition it owns (CategoryCommands::admit_here): 204, or the
// command's Error. Only a trusted peer's is heard (http::Forwarder's header
// from a TRUSTED_PROXIES address; nginx refuses /internal/): anyone else
// gets 404 route_not_found.
void add_category_routes(http::Router& router, const RouteDeps& deps);

// CategoryCommands::Relay over HTTP, to the route above.
CategoryCommands::Relay admission_relay(const http::Forwarder& forwarder);

}  // namespace petstore::pets
