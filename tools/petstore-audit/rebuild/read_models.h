#pragma once

#include <memory>
#include <string>

#include "es/key_space.h"
#include "projection/runner.h"

namespace petstore::audit {

// One service's read model as `rebuild` needs it: the service's own
// projection code, writing under a key prefix of the auditor's choosing, and
// what of the key space the log does not produce. Each is defined in a
// library compiled against that service alone (the services share header
// names), so the tool folds the log with exactly the code the services run.
struct ReadModel {
  std::string service;  // "pets": the key space "<prefix>:{pets}:"
  std::unique_ptr<projection::Applier> applier;
  es::NotFromLog not_from_log;
  // Where its keys are, when not in the service's key space: the key
  // registry's are "<prefix>:apikey..." (records and index), its positions
  // in the key space. Empty for the services.
  std::string data_stem;
  // Whose positions record the live projection of its topics (the key
  // registry: every service's; pets' are compared). Empty: `service`.
  std::string live_positions_of;

  [[nodiscard]] std::string data_base(const std::string& prefix) const {
    return data_stem.empty() ? es::KeySpace(prefix, service).base() : prefix + data_stem;
  }
};

}  // namespace petstore::audit
