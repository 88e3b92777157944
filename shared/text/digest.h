#pragma once

#include <string>
#include <string_view>

namespace petstore::text {

std::string sha1_hex(std::string_view data);
std::string sha256_hex(std::string_view data);

}  // namespace petstore::text
