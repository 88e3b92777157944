// Any bytes as the data of an event read from the log.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "json/event_fields.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  try {
    const petstore::json::EventFields f(std::string_view(reinterpret_cast<const char*>(data), size));
    for (const char* name : {"id", "name", "categoryId", "status", "quantity", "petId", "version"}) {
      try {
        (void)f.optional_integer(name);
      } catch (const std::invalid_argument&) {
      }
      try {
        (void)f.optional_text(name);
      } catch (const std::invalid_argument&) {
      }
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
