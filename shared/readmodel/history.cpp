#include "readmodel/history.h"

#include "error/domain_error.h"

namespace petstore::readmodel {

std::optional<Page<std::string>> history_page(redis::Multiplexer& reads, const std::string& aggregate_key,
                                              const readmodel::PageRequest& req) {
  const auto key = history_key(aggregate_key);
  const auto after = "(" + std::to_string(req.after);
  const auto fetch = std::to_string(req.limit + 1);  // one more: is there a next page?
  const auto reply = reads.command({"ZRANGEBYSCORE", key, after, "+inf", "WITHSCORES", "LIMIT", "0", fetch});
  const auto& r = redis::expect_ok(reply);
  if (r.elements == 0 && req.after == 0) {
    return std::nullopt;
  }
  Page<std::string> out;
  std::int64_t last = req.after;
  for (size_t i = 0; i + 1 < r.elements; i += 2) {
    if (static_cast<std::int64_t>(out.items.size()) == req.limit) {
      out.next_cursor = last;
      break;
    }
    out.items.emplace_back(redis::as_string(*r.element[i]));
    last = std::stoll(std::string(redis::as_string(*r.element[i + 1])));
  }
  return out;
}

Page<std::string> require_history(redis::Multiplexer& reads, const std::string& aggregate_key,
                                  const readmodel::PageRequest& req, const char* not_found_code,
                                  const std::string& not_found_message) {
  auto found = history_page(reads, aggregate_key, req);
  if (!found) {
    throw DomainError(DomainError::Kind::NotFound, not_found_code, not_found_message);
  }
  return *std::move(found);
}

}  // namespace petstore::readmodel
