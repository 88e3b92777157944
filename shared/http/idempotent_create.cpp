#include "http/idempotent_create.h"

#include "http/request.h"
#include "http/response.h"
#include "kafka/handles.h"
#include "text/digest.h"

namespace petstore::http {

void send_stored(httplib::Response& res, const es::StoredResponse& stored) {
  if (!stored.location.empty()) {
    res.set_header("Location", stored.location);
  }
  if (!stored.etag.empty()) {
    res.set_header("ETag", stored.etag);
  }
  send_json(res, stored.status, stored.body);
}

void idempotent_create(const httplib::Request& req, httplib::Response& res, es::IdempotencyStore& store,
                       const std::string& record_key_prefix, const CreateCommand& create) {
  const auto key = idempotency_key(req);
  if (!key) {
    send_stored(res, create({}));
    return;
  }
  const auto record = record_key_prefix + *key;
  const auto fingerprint = text::sha1_hex(req.method + " " + req.path + "\n" + req.body);
  const auto claim = store.begin(record, fingerprint);
  if (claim.outcome == es::IdempotencyStore::Outcome::Replay) {
    res.set_header("Idempotent-Replayed", "true");
    send_stored(res, claim.replay);
    return;
  }
  es::StoredResponse response;
  try {
    response = create({text::sha1_hex(record)});
  } catch (const kafka::Unavailable& e) {
    // If the event may be in the log, keep the claim: a retry after its lease
    // resumes and finds out. Otherwise nothing happened; forget the key.
    if (!e.possibly_persisted()) {
      store.abandon(claim);
    }
    throw;
  } catch (...) {
    store.abandon(claim);
    throw;
  }
  store.complete(claim, response);
  send_stored(res, response);
}

}  // namespace petstore::http
