#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <httplib.h>

namespace petstore::fuzz {

// Splits one fuzz input into fields at a separator byte (0xFF), so a target
// can take several strings from one input; missing fields are empty.
class Fields {
 public:
  Fields(const std::uint8_t* data, size_t size) : rest_(reinterpret_cast<const char*>(data), size) {}

  std::string next() {
    const auto at = rest_.find('\xff');
    std::string field(rest_.substr(0, at));
    rest_ = at == std::string_view::npos ? std::string_view{} : rest_.substr(at + 1);
    return field;
  }

 private:
  std::string_view rest_;
};

// A request whose body is the input, sent as JSON: what a codec reads.
inline httplib::Request json_request(const std::uint8_t* data, size_t size) {
  httplib::Request req;
  req.headers.emplace("Content-Type", "application/json");
  req.body.assign(reinterpret_cast<const char*>(data), size);
  return req;
}

// Up to `most` name/value pairs from the next fields, until an empty pair.
template <typename Map>
void read_pairs(Fields& in, Map& into, int most) {
  for (int i = 0; i < most; ++i) {
    auto name = in.next();
    auto value = in.next();
    if (name.empty() && value.empty()) {
      return;
    }
    into.emplace(std::move(name), std::move(value));
  }
}

}  // namespace petstore::fuzz
