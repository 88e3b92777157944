// Any bytes as a chunked request body (http::read_chunked), which a
// replica decodes itself from whoever connects. Read in steps of every
// size from one byte up: the outcome must not depend on how the bytes
// arrive, a whole body never holds more than the limit, and nothing is
// consumed past the body's end.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "http/chunked.h"

namespace {

struct Wire {
  std::string bytes;
  size_t step;
  size_t used = 0;
};

petstore::http::ChunkedBody decode(Wire& w, size_t limit) {
  return petstore::http::read_chunked(
      [&w](char* out, size_t max) {
        const auto n = std::min({max, w.step, w.bytes.size() - w.used});
        std::memcpy(out, w.bytes.data() + w.used, n);
        w.used += n;
        return n;
      },
      limit);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  constexpr size_t kLimit = 1024;
  const std::string input(reinterpret_cast<const char*>(data), size);
  Wire whole{input, input.size() + 1};
  const auto first = decode(whole, kLimit);
  if (first.outcome == petstore::http::ChunkedBody::Outcome::Whole && first.data.size() > kLimit) {
    std::abort();
  }
  for (const size_t step : {size_t{1}, size_t{7}}) {
    Wire w{input, step};
    const auto again = decode(w, kLimit);
    if (again.outcome != first.outcome || again.data != first.data ||
        (first.outcome == petstore::http::ChunkedBody::Outcome::Whole && w.used != whole.used)) {
      std::abort();
    }
  }
  return 0;
}
