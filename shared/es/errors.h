#pragma once

#include <stdexcept>

namespace petstore::es {

// The read model is not a whole fold of the log: it was wiped, lost
// positions, or is being rebuilt (projection::Readiness). Nothing was
// decided and nothing appended; the caller may retry once it is ready.
// The HTTP edge answers 503 read_model_rebuilding with Retry-After.
class NotReady : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace petstore::es
