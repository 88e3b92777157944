#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <httplib.h>

#include "es/idempotency.h"
#include "ids/id_generator.h"

namespace petstore::http {

// What a creating command is asked to do.
struct CreateRequest {
  // The id to create under, reserved for the request (0 when the command
  // picks its own: no generator was given).
  std::int64_t id = 0;
  // An earlier attempt with the same Idempotency-Key died after reserving `id`.
  bool resumed = false;
  // With an Idempotency-Key: a digest of the key's record (its scope and
  // the key), which a single writer keeps in the log with the aggregate it
  // creates (es::AggregateWriter::create). Empty without a key.
  std::string request;
};

// Runs a creating command under the request's Idempotency-Key, if it has one:
// a repeat of a completed request replays the stored response, a repeat of a
// request whose first attempt died resumes it (with the id it reserved, when
// `ids` reserves one). The command returns the response to send (and store).
using CreateCommand = std::function<es::StoredResponse(const CreateRequest&)>;

// `ids`: where reserved ids come from; null when the command picks the id
// itself (a single writer, from its fold).
void idempotent_create(const httplib::Request& req, httplib::Response& res, es::IdempotencyStore& store,
                       const std::string& record_key_prefix, ids::IdGenerator* ids,
                       const CreateCommand& create);

void send_stored(httplib::Response& res, const es::StoredResponse& stored);

}  // namespace petstore::http
