#pragma once

#include <string>
#include <string_view>

#include "kafka/consumer.h"

namespace petstore::kafka {

// A consumed record as one byte string, and back: how a reactor hands an
// upstream event to the replica that owns the aggregate it changes
// (service::ReactionRelay), with its key, value and headers exactly as the
// log holds them. Any bytes may appear in any field, so each field is
// length-prefixed: "<decimal length>:<bytes>," in the order topic,
// partition, offset, key, value, then header name/value pairs.
std::string frame(const Message& m);

// Throws std::invalid_argument for anything frame() does not produce: a
// missing, malformed or oversized length, a missing separator, a partition
// or offset out of range, more than kMaxFramedHeaders headers, or bytes
// after the last field.
Message unframe(std::string_view bytes);

inline constexpr std::size_t kMaxFramedHeaders = 64;

}  // namespace petstore::kafka
