#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <httplib.h>

#include "es/idempotency.h"

namespace petstore::http {

// What a creating command is asked to do.
struct CreateRequest {
  // With an Idempotency-Key: a digest of the key's record (its scope and
  // the key), which a single writer keeps in the log with the aggregate it
  // creates (es::AggregateWriter::create). Empty without a key.
  std::string request;
};

// Runs a creating command under the request's Idempotency-Key, if it has one:
// a repeat of a completed request replays the stored response, a repeat of a
// request whose first attempt died runs it again, which its single writer
// answers with what the first attempt created, if anything. The command
// returns the response to send (and store).
using CreateCommand = std::function<es::StoredResponse(const CreateRequest&)>;

void idempotent_create(const httplib::Request& req, httplib::Response& res, es::IdempotencyStore& store,
                       const std::string& record_key_prefix, const CreateCommand& create);

void send_stored(httplib::Response& res, const es::StoredResponse& stored);

}  // namespace petstore::http
