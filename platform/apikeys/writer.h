#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "apikeys/api_key.h"
#include "apikeys/events.h"
#include "es/aggregate_writer.h"

namespace petstore::apikeys {

// API keys as the keys topic's single writer knows them (es::AggregateWriter,
// docs/consistency.md): a key's state is the fold of its events, the
// registry's own (apikeys::evolve). A key's aggregate id is its id's 64
// bits, spelled in its events as the 16 hex digits the admin API uses.
struct KeyTraits {
  using State = Key;
  using Event = KeyEvent;
  // Keys take the id their key's digest gives (issue, never create()), so
  // they share no id space with the store's kinds; the class is unused.
  static constexpr std::int64_t kIdClass = 3;

  static Event decode(const events::Envelope& env) { return apikeys::decode(env.type, env.data); }
  static void evolve(State& state, const Event& e, std::int64_t version, const std::string& time) {
    apikeys::evolve(state, e, version, time);
  }
  static es::EventParts parts(const Event& e) {
    return {std::string(type_of(e)), encode(e), kKeyEventSchemaVersion};
  }
  static std::string subject(std::int64_t id) { return id_text(id); }
  static std::int64_t id_of(std::string_view subject) {
    if (!is_key_id(subject)) {
      throw std::invalid_argument("ce_subject is not an API key id: " + std::string(subject));
    }
    return id_bits(subject);
  }
};
static_assert(es::AggregateTraits<KeyTraits>);

using KeyWriter = es::AggregateWriter<KeyTraits>;

}  // namespace petstore::apikeys
