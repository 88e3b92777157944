#include "apikeys/key_registry.h"
#include "view_module.h"

namespace petstore::audit {
namespace {

ReadModel read_model(const std::string& prefix) {
  ReadModel m;
  m.service = "apikeys";
  m.applier =
      std::make_unique<apikeys::KeyRegistry>(apikeys::KeyModel(es::KeySpace(prefix, m.service), prefix));
  // The rate limiter's counters share the key's record (limit.lua)
  // without being events.
  m.not_from_log.key_prefixes.clear();
  m.not_from_log.hash_fields = {"mw", "mc", "dw", "dc", "nu", "nc", "bu", "ou", "oc"};
  m.data_stem = ":apikey";
  m.live_positions_of = "pets";
  return m;
}

}  // namespace

// A key's state is its record in the registry (GET /admin/keys/{keyId}):
// as-of takes no key.
const ViewModule& keys_views() {
  static const ViewModule kViews{{"apikey"}, nullptr, read_model};
  return kViews;
}

}  // namespace petstore::audit
