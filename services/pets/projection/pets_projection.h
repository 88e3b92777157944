#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/events.h"
#include "projection/keys.h"
#include "projection/runner.h"
#include "redis/script.h"

namespace petstore::pets {

// Applies pets-service events to Redis with apply.lua: from the log (as the
// projection's Applier) and, on the write path, a command's own event right
// after the log acknowledged it.
class PetsProjection : public projection::Applier {
 public:
  explicit PetsProjection(PetKeys keys);

  void queue(redis::Connection& conn, const kafka::Message& message) override;
  [[nodiscard]] std::vector<const redis::Script*> scripts() const override;

  enum class Outcome { Applied, Duplicate, Behind };
  Outcome apply_own(redis::Connection& conn, const Event& event, std::int64_t version,
                    const std::string& time, const std::string& claim_token);

 private:
  [[nodiscard]] std::vector<std::string> arguments(const std::string& field, std::int64_t offset,
                                                   const Event& event, std::int64_t version,
                                                   const std::string& time,
                                                   const std::string& claim_token) const;

  PetKeys keys_;
  std::string offsets_key_;
  redis::Script apply_;
  redis::Script skip_;
};

}  // namespace petstore::pets
