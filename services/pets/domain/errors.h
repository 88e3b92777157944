#pragma once

#include "error/domain_error.h"

// Error codes of the pets service; the shared ones are in shared/error/codes.h
// and the README lists both.
namespace petstore::pets::codes {

inline constexpr const char* kPetNotFound = "pet_not_found";
inline constexpr const char* kCategoryNotFound = "category_not_found";
inline constexpr const char* kUnknownCategory = "unknown_category";
inline constexpr const char* kCategoryInUse = "category_in_use";
inline constexpr const char* kIllegalTransition = "illegal_status_transition";

}  // namespace petstore::pets::codes
