// Any bytes as a request body: parse_object, then every typed read an
// ObjectReader offers, as the services' codecs do.
#include <cstdint>
#include <string_view>

#include "json/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  try {
    const auto doc = json::parse_object(std::string_view(reinterpret_cast<const char*>(data), size));
    for (const auto& m : doc.GetObject()) {
      json::ObjectReader in(doc);
      const std::string name(m.name.GetString(), m.name.GetStringLength());
      try {
        (void)in.optional_int64(name.c_str());
      } catch (const json::Invalid&) {
      }
      try {
        (void)in.optional_string(name.c_str());
      } catch (const json::Invalid&) {
      }
      try {
        (void)in.optional_bool(name.c_str());
      } catch (const json::Invalid&) {
      }
      try {
        if (const auto* nested = in.optional_object(name.c_str())) {
          json::ObjectReader inner(*nested);
          inner.reject_unknown();
        }
      } catch (const json::Invalid&) {
      }
    }
  } catch (const json::Invalid&) {
  }
  return 0;
}
