#pragma once

#include <cstdint>
#include <string>

#include "orders/domain/events.h"
#include "orders/domain/order.h"

namespace petstore::orders {

// One order as a pure fold of its events: what the read model holds
// (the projection folds with it) and what an auditor replays
// (tools/petstore-audit). An event whose version is not above the order's is a
// duplicate and changes nothing; returns whether it was applied. It records
// what the log says and does not judge it: whether a step was allowed is
// decide_*'s question, and the audit's.
bool evolve(Order& order, const Event& event, std::int64_t version, const std::string& time);

}  // namespace petstore::orders
