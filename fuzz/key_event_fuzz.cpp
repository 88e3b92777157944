// Any bytes as an API key event read from the keys topic: the first byte
// picks the type, the rest is the data. Every service's projection decodes
// these before applying them to the key registry the rate limiter trusts.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "apikeys/events.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore::apikeys;
  if (size == 0) {
    return 0;
  }
  constexpr std::string_view kTypes[] = {KeyIssued::kType, KeyReplanned::kType, KeyRevoked::kType,
                                         "io.petstore.apikey.other"};
  const auto type = kTypes[data[0] % 4];
  try {
    const auto event = decode(type, std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
    // What decodes encodes, and decodes again to the same.
    if (encode(decode(type, encode(event))) != encode(event)) {
      __builtin_trap();
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
