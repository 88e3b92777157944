#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kafka/consumer.h"
#include "pets/domain/evolve.h"

namespace petstore::testing {

// Reads the pets and categories topics and checks what the consistency
// design promises of the log: per aggregate, versions 1..n with no gap and no
// duplicate, among the committed records. Returns the fold of the log
// (what Redis must equal).
struct FoldedLog {
  pets::Catalogue state;
  std::map<std::int64_t, std::vector<std::int64_t>> versions;  // per aggregate, log order
  std::vector<std::string> violations;
};

FoldedLog fold_topics(const std::vector<std::string>& topics);

}  // namespace petstore::testing
