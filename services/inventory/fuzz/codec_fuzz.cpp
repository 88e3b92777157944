// Any body for the inventory service's write: a stock update.
#include <cstdint>

#include "error/domain_error.h"
#include "fuzz_input.h"
#include "http/api_error.h"
#include "inventory/http/json_codec.h"
#include "json/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  const auto req = fuzz::json_request(data, size);
  try {
    (void)inventory::parse_inventory_update(req);
  } catch (const ApiException&) {
  } catch (const json::Invalid&) {
  } catch (const DomainError&) {
  }
  return 0;
}
