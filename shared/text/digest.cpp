#include "text/digest.h"

#include <array>

#include <openssl/sha.h>

namespace petstore::text {
namespace {

template <size_t N>
std::string hex(const std::array<unsigned char, N>& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(N * 2);
  for (const unsigned char byte : digest) {
    out.push_back(kHex[byte >> 4U]);
    out.push_back(kHex[byte & 0x0FU]);
  }
  return out;
}

}  // namespace

std::string sha1_hex(std::string_view data) {
  std::array<unsigned char, SHA_DIGEST_LENGTH> digest{};
  SHA1(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data());
  return hex(digest);
}

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data());
  return hex(digest);
}

}  // namespace petstore::text
