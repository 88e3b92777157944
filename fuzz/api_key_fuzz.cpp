// Any X-API-Key value, and any Authorization header against the admin token.
#include <cstdint>
#include <string>

#include "apikeys/admin_token.h"
#include "apikeys/api_key.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  fuzz::Fields in(data, size);
  const auto presented = in.next();
  if (const auto id = apikeys::identify(presented)) {
    (void)apikeys::is_key_id(id->id);
  }
  (void)apikeys::is_key_id(presented);
  static const apikeys::AdminToken token(std::string("fuzzing-admin-token-0123"));
  httplib::Request req;
  req.headers.emplace("Authorization", in.next());
  (void)token.check(req);
  return 0;
}
