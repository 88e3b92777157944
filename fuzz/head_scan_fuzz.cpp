// Any bytes as the start of a request on a connection (http/request_head.h),
// which a replica scans itself before cpp-httplib parses the canonical form
// of what it found. A whole head stays whole in canonical form, every
// shorter prefix of it is incomplete (the outcome does not depend on how
// the bytes arrive), and the same bytes as an Accept-Encoding value choose
// one of the codings offered.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "http/request.h"
#include "http/request_head.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using petstore::http::HeadScan;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);  // NOLINT
  const auto scan = petstore::http::scan_request_head(bytes);
  if (scan.outcome == HeadScan::Outcome::Whole) {
    if (scan.consumed == 0 || scan.consumed > size) {
      std::abort();
    }
    const auto canonical = petstore::http::canonical_head(scan.head);
    const auto again = petstore::http::scan_request_head(canonical);
    if (again.outcome != HeadScan::Outcome::Whole || again.consumed != canonical.size() ||
        again.head.target != scan.head.target || again.head.version != scan.head.version) {
      std::abort();
    }
    for (size_t k = 0; k < scan.consumed; k += 1 + scan.consumed / 16) {
      if (petstore::http::scan_request_head(bytes.substr(0, k)).outcome != HeadScan::Outcome::Incomplete) {
        std::abort();
      }
    }
  }
  const auto coding = petstore::http::response_coding(bytes, {"br", "gzip"});
  if (!coding.empty() && coding != "br" && coding != "gzip") {
    std::abort();
  }
  return 0;
}
