#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace petstore::readmodel {

// Cursor pagination: `limit` items after the item named by `cursor`. The
// read side's own terms; http::page_request reads them from a query.
struct PageRequest {
  static constexpr std::int64_t kDefaultLimit = 20;
  static constexpr std::int64_t kMaxLimit = 100;
  std::int64_t limit = kDefaultLimit;
  std::int64_t after = 0;  // ids are positive; 0 = from the start
};

// One page of a list, and the cursor of the next page when more may follow.
template <typename T>
struct Page {
  std::vector<T> items;
  std::optional<std::int64_t> next_cursor;
};

}  // namespace petstore::readmodel
