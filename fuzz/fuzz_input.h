#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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

}  // namespace petstore::fuzz
