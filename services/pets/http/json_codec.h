#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <httplib.h>

#include "pets/domain/pet.h"

namespace petstore::pets {

// Request bodies to commands. `path_id` is the id in the URL for a replace:
// the body may repeat it (a client sending back a Pet it read) but not change
// it; a create refuses any id (ids are assigned by the service).
PetFields parse_pet(const httplib::Request& req, std::optional<std::int64_t> path_id);
PetStatus parse_status_change(const httplib::Request& req);
CategoryFields parse_category(const httplib::Request& req, std::optional<std::int64_t> path_id);
PetStatus parse_status_value(const std::string& text, const char* where);

// Resources to JSON, in the shapes of schemas/openapi.yaml.
std::string to_json(const Pet& pet);
std::string to_profile_json(const Pet& pet);
std::string to_json(const Category& category);
std::string to_json(const std::vector<Pet>& pets);
std::string to_json(const std::vector<Category>& categories);

}  // namespace petstore::pets
