#include "apikeys/key_registry.h"

#include <stdexcept>

#include "embedded/key_registry.lua.h"
#include "text/datetime.h"

namespace petstore::apikeys {

KeyRegistry::KeyRegistry(const es::KeySpace& space, const std::string& prefix)
    : ScriptApplier(space, prefix + ":apikey:", kKeyRegistryLua, "API key"),
      index_key_(prefix + ":apikeys") {}

std::vector<std::string> KeyRegistry::event_arguments(const events::Envelope& envelope) const {
  // Decoding validates what the script then reads from the event itself.
  const auto event = decode(envelope.type, envelope.data);
  if (subject_of(event) != envelope.subject) {
    throw std::invalid_argument("ce_subject is not the keyId in the payload");
  }
  const auto ms = text::parse_time_ms(envelope.time);
  if (!ms) {
    throw std::invalid_argument("ce_time is not an RFC 3339 date-time");
  }
  return {index_key_, std::to_string(*ms)};
}

es::ApplyOutcome KeyRegistry::apply_own(redis::Connection& conn, const events::Envelope& envelope) const {
  return ScriptApplier::apply_own(conn, envelope, event_arguments(envelope));
}

}  // namespace petstore::apikeys
