#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "readmodel/page.h"
#include "redis/multiplexer.h"
#include "redis/script.h"

namespace petstore::readmodel {

// Cursor-paginated lists in one round trip: ids from a sorted set (score =
// id) after the cursor, each with fields of the hash "<prefix><id>". One more
// id than asked is fetched to learn whether a next page exists. `make` turns
// (id, field replies) into an item, or nullopt for one to leave out (an
// index entry whose record is gone or deleted). The cursor is the last id
// looked at, so a page short of the limit because of such entries still
// names the next one when the fetch was full: more ids may follow the ones
// fetched, and the client would otherwise never see them.
class Lister {
 public:
  explicit Lister(redis::Multiplexer& reads);

  template <typename T, typename Make>
  Page<T> page(const std::string& index, const std::string& hash_prefix,
               std::span<const std::string_view> fields, const PageRequest& req, Make make) {
    const auto reply = fetch(index, hash_prefix, {fields.begin(), fields.end()}, req);
    const auto& r = redis::expect_ok(reply);
    Page<T> out;
    const size_t stride = fields.size() + 1;
    std::int64_t last = 0;  // the last id looked at
    for (size_t i = 0; i + stride <= r.elements; i += stride) {
      if (static_cast<std::int64_t>(out.items.size()) == req.limit) {
        out.next_cursor = last;
        break;
      }
      last = redis::as_integer(*r.element[i]);
      if (auto item = make(last, r.element + i + 1)) {
        out.items.push_back(*std::move(item));
      }
    }
    const auto fetched = static_cast<std::int64_t>(r.elements / stride);
    if (!out.next_cursor && fetched == ids_to_fetch(req)) {
      out.next_cursor = last;  // every id fetched was looked at, and some were left out
    }
    return out;
  }

 private:
  // One more id than the page holds: is there a next page?
  static std::int64_t ids_to_fetch(const PageRequest& req) { return req.limit + 1; }
  redis::Reply fetch(const std::string& index, const std::string& hash_prefix,
                     const std::vector<std::string_view>& fields, const PageRequest& req);

  redis::Multiplexer& reads_;
  redis::Script list_;
};

// HMGET key field...: the single-item read matching a list's fields. The
// arguments view `key`, which must outlive them.
inline redis::Args hmget(const std::string& key, std::span<const std::string_view> fields) {
  redis::Args args{"HMGET", key};
  args.insert(args.end(), fields.begin(), fields.end());
  return args;
}

}  // namespace petstore::readmodel
