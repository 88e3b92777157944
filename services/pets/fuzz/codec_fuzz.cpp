// Any body for the pets service's writes: pets, status changes, categories.
#include <cstdint>

#include "error/domain_error.h"
#include "fuzz_input.h"
#include "http/api_error.h"
#include "json/reader.h"
#include "pets/http/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  const auto req = fuzz::json_request(data, size);
  const auto guarded = [](auto&& f) {
    try {
      f();
    } catch (const ApiException&) {
    } catch (const json::Invalid&) {
    } catch (const DomainError&) {
    }
  };
  guarded([&] { (void)pets::parse_pet(req, std::nullopt); });
  guarded([&] { (void)pets::parse_pet(req, 7); });
  guarded([&] { (void)pets::parse_status_change(req); });
  guarded([&] { (void)pets::parse_category(req, std::nullopt); });
  guarded([&] { (void)pets::parse_status_value(req.body, "status"); });
  return 0;
}
