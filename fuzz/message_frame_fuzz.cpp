// Any bytes as the body of a reaction step relayed between replicas
// (service::ReactionRelay, POST /internal/reactions/{purpose}): only trusted
// peers are heard, but the frame is parsed before anything else. What it
// accepts must frame back to the same bytes.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "kafka/message_frame.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto m = petstore::kafka::unframe(bytes);
    // Lengths with leading zeros read fine but frame without them.
    const auto again = petstore::kafka::frame(petstore::kafka::unframe(petstore::kafka::frame(m)));
    if (again != petstore::kafka::frame(m)) {
      std::abort();
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
