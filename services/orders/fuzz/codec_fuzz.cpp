// Any body for the orders service's writes: new orders and completions.
#include <cstdint>

#include "error/domain_error.h"
#include "fuzz_input.h"
#include "http/api_error.h"
#include "json/reader.h"
#include "orders/http/json_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  const auto req = fuzz::json_request(data, size);
  try {
    (void)orders::parse_new_order(req);
  } catch (const ApiException&) {
  } catch (const json::Invalid&) {
  } catch (const DomainError&) {
  }
  try {
    (void)orders::parse_completion(req);
  } catch (const ApiException&) {
  } catch (const json::Invalid&) {
  } catch (const DomainError&) {
  }
  return 0;
}
