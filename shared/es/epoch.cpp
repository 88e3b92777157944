#include "es/epoch.h"

#include <charconv>

namespace petstore::es {

FenceHeaders fence_headers(const kafka::Message& m) {
  // The first of each, as kafka::Message::header finds it (read here
  // directly, so the fuzz target of the audit links no consumer).
  FenceHeaders out;
  for (const auto& h : m.headers) {
    if (!out.claim && h.name == kClaimHeader) {
      out.claim = h.value;
    } else if (!out.epoch && h.name == kEpochHeader) {
      out.epoch = h.value;
    }
  }
  return out;
}

std::optional<std::int64_t> EpochRule::parse(std::optional<std::string_view> value) {
  if (!value || value->empty() || value->size() > 18 ||
      value->find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  std::int64_t n = 0;
  std::from_chars(value->data(), value->data() + value->size(), n);
  return n;
}

EpochRule::Verdict EpochRule::next(std::optional<std::string_view> claim,
                                   std::optional<std::string_view> epoch) {
  if (claim) {
    const auto e = parse(claim);
    if (e && *e > current_) {
      current_ = *e;
      return Verdict::Claimed;
    }
    return Verdict::StaleClaim;
  }
  const auto e = epoch ? parse(epoch) : std::optional<std::int64_t>(0);
  return e && *e == current_ ? Verdict::Counts : Verdict::Fenced;
}

}  // namespace petstore::es
