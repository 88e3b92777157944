#include "apikeys/api_key.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <stdexcept>

#include <openssl/rand.h>

#include "text/digest.h"

namespace petstore::apikeys {
namespace {

constexpr std::string_view kKeyPrefix = "psk_";
constexpr size_t kKeyHexDigits = 32;
constexpr size_t kIdHexDigits = 16;

bool all_lower_hex(std::string_view s) {
  return s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

std::string generate_key() {
  std::array<unsigned char, kKeyHexDigits / 2> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw std::runtime_error("no randomness for a new API key");
  }
  return std::string(kKeyPrefix) + text::hex(bytes);
}

std::optional<KeyIdentity> identify(std::string_view presented) {
  if (presented.size() != kKeyPrefix.size() + kKeyHexDigits || !presented.starts_with(kKeyPrefix) ||
      !all_lower_hex(presented.substr(kKeyPrefix.size()))) {
    return std::nullopt;
  }
  auto digest = text::sha256_hex(presented);
  auto id = digest.substr(0, kIdHexDigits);
  return KeyIdentity{std::move(id), std::move(digest)};
}

bool is_key_id(std::string_view id) {
  return id.size() == kIdHexDigits && all_lower_hex(id);
}

std::int64_t id_bits(std::string_view id) {
  std::uint64_t v = 0;
  std::from_chars(id.data(), id.data() + id.size(), v, 16);
  return static_cast<std::int64_t>(v);
}

std::string id_text(std::int64_t bits) {
  std::array<char, kIdHexDigits + 1> hex{};
  std::snprintf(hex.data(), hex.size(), "%016llx",
                static_cast<unsigned long long>(static_cast<std::uint64_t>(bits)));
  return hex.data();
}

std::string record_key(const std::string& prefix, const std::string& id) {
  return prefix + ":apikey:{" + id + "}";
}

}  // namespace petstore::apikeys
