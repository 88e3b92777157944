#include "apikeys/key_registry.h"

#include <stdexcept>

#include "embedded/key_registry.lua.h"
#include "text/datetime.h"

namespace petstore::apikeys {

KeyRegistry::KeyRegistry(const es::KeySpace& space, const std::string& prefix)
    : ScriptApplier(space, prefix + ":apikey:", kKeyRegistryLua, "API key", {prefix + ":apikeys"}),
      index_key_(prefix + ":apikeys") {}

void KeyRegistry::check(const events::Envelope& envelope) const {
  // Decoding validates what the script then reads from the event itself.
  const auto event = decode(envelope.type, envelope.data);
  if (subject_of(event) != envelope.subject) {
    throw std::invalid_argument("ce_subject is not the keyId in the payload");
  }
  // The script turns ce_time into the index's score.
  if (!text::parse_time_ms(envelope.time)) {
    throw std::invalid_argument("ce_time is not an RFC 3339 date-time");
  }
}

}  // namespace petstore::apikeys
