#pragma once

#include <span>
#include <string>
#include <string_view>

namespace petstore::text {

// Lower-case hex of raw bytes, two digits per byte.
std::string hex(std::span<const unsigned char> bytes);

std::string sha1_hex(std::string_view data);
std::string sha256_hex(std::string_view data);

}  // namespace petstore::text
