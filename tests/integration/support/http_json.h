#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <httplib.h>
#include <rapidjson/document.h>

namespace petstore::testing {

rapidjson::Document parse(const std::string& body);

httplib::Result post_json(httplib::Client& c, const std::string& path, const std::string& body,
                          const httplib::Headers& headers = {});
httplib::Result put_json(httplib::Client& c, const std::string& path, const std::string& body,
                         const httplib::Headers& headers = {});

// A POST as a careful client sends it while replicas come and go: with an
// Idempotency-Key, and sent again on 503 (writer_moving while partitions
// move, outcome_unknown when a replica died with it; the key makes the
// retry safe) or 409 request_in_progress, after the Retry-After it says
// (a second without one), up to `attempts` times. Any other answer is
// returned as it is.
httplib::Result post_retrying(httplib::Client& c, const std::string& path, const std::string& body,
                              const std::string& idempotency_key, int attempts = 10);

// Asserts the body is exactly an Error {code, message, status} whose status
// equals the HTTP status; returns its code.
std::string error_code(const httplib::Result& r);

std::int64_t id_of(const httplib::Result& r);

// Sets pet `pet`'s stock to `quantity` once the inventory has its entry
// (it mirrors a new pet from the log after the pet's 201; until then the
// PUT answers 404 and changes nothing). False if no PUT succeeded within
// `wait`.
bool stock_when_tracked(httplib::Client& c, std::int64_t pet, std::int64_t quantity,
                        std::chrono::milliseconds wait = std::chrono::seconds(30));

// A new category named `category` and `n` pets in it (named "<category>
// <i>"), each stocked with `quantity` (stock_when_tracked). A pet that
// could not be stocked is a test failure, and `stocked` is false.
struct StockedPets {
  std::int64_t category = 0;
  std::vector<std::int64_t> pets;
  bool stocked = true;
};
StockedPets stocked_pets(httplib::Client& c, const std::string& category, int n, std::int64_t quantity);

}  // namespace petstore::testing
