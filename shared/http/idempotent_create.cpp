#include "http/idempotent_create.h"

#include "es/errc.h"
#include "http/request.h"
#include "http/response.h"
#include "kafka/handles.h"
#include "log/log.h"
#include "redis/connection.h"
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
  } catch (const es::Error& e) {
    if (e.code() != es::Errc::OutcomeUnknown) {
      store.abandon(claim);
    }
    throw;
  } catch (...) {
    store.abandon(claim);
    throw;
  }
  try {
    store.complete(claim, response);
  } catch (const std::exception& e) {
    // The create is committed: its answer stands, whatever Redis said (down,
    // or refusing: OOM, READONLY). A retry once the claim's lease has run out
    // finds the aggregate from the log (the event carries the key's
    // digest), not from this record.
    log::warn("idempotency record of a committed create not stored ({}); a retry is answered from the log",
              e.what());
  }
  send_stored(res, response);
}

}  // namespace petstore::http
