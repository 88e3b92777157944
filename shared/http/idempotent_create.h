#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <httplib.h>

#include "es/idempotency.h"
#include "ids/id_generator.h"

namespace petstore::http {

// Runs a creating command under the request's Idempotency-Key, if it has one:
// a repeat of a completed request replays the stored response, a repeat of a
// request whose first attempt died resumes it with the id it reserved. The
// command gets the id to create and whether it is resuming, and returns the
// response to send (and store).
using CreateCommand = std::function<es::StoredResponse(std::int64_t id, bool resumed)>;

void idempotent_create(const httplib::Request& req, httplib::Response& res, es::IdempotencyStore& store,
                       const std::string& record_key_prefix, ids::IdGenerator& ids,
                       const CreateCommand& create);

void send_stored(httplib::Response& res, const es::StoredResponse& stored);

}  // namespace petstore::http
