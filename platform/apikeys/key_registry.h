#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apikeys/events.h"
#include "es/key_space.h"
#include "projection/applier.h"

namespace petstore::apikeys {

// The key registry as a read model of the keys topic: each service applies
// that topic into the one shared registry ("<prefix>:apikey:{<id>}" records,
// which limit.lua reads, and the "<prefix>:apikeys" index by issue time)
// alongside its own read model, with its own positions and ready marker
// (`space`), so a service is only ready once the registry holds every key
// the log has.
class KeyModel {
 public:
  using Event = KeyEvent;
  using State = Key;  // as the registry holds it

  KeyModel(const es::KeySpace& space, const std::string& prefix);

  [[nodiscard]] const es::KeySpace& space() const { return space_; }
  [[nodiscard]] const std::string& index_key() const { return index_key_; }
  // Also throws when ce_subject is not the payload's key id, or ce_time is
  // not an RFC 3339 date-time (the index's score).
  [[nodiscard]] Event decode(const events::Envelope& envelope) const;
  [[nodiscard]] std::string key(const Event& e) const;
  [[nodiscard]] std::vector<projection::Command> reads(const std::vector<const Event*>& batch) const;
  [[nodiscard]] State state(const std::vector<const Event*>& batch,
                            std::span<const redis::Reply> replies) const;
  void evolve(State& s, const Event& e, std::int64_t version, const std::string& time) const;
  [[nodiscard]] projection::Record record(const State& s, const Event& e) const;

 private:
  es::KeySpace space_;
  std::string prefix_;
  std::string index_key_;
};

using KeyRegistry = projection::Projection<KeyModel>;

}  // namespace petstore::apikeys
