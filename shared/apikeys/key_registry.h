#pragma once

#include <string>
#include <vector>

#include "apikeys/events.h"
#include "es/key_space.h"
#include "projection/script_applier.h"

namespace petstore::apikeys {

// The key registry as a projection of the keys topic: each service applies
// that topic into the one shared registry ("<prefix>:apikey:{<id>}" records
// and the "<prefix>:apikeys" index) alongside its own read model, with its
// own positions and ready marker (`space`), so a service is only ready once
// the registry holds every key the log has. key_registry.lua applies.
class KeyRegistry : public projection::ScriptApplier {
 public:
  KeyRegistry(const es::KeySpace& space, const std::string& prefix);

  [[nodiscard]] const std::string& index_key() const { return index_key_; }

 protected:
  void check(const events::Envelope& envelope) const override;

 private:
  std::string index_key_;
};

}  // namespace petstore::apikeys
