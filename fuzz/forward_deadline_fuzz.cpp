// Any bytes as the deadline of a forwarded request
// (X-Petstore-Forward-Deadline, http::Forwarder::expired): the owner reads
// it before anything else, from whoever sent X-Petstore-Forwarded. A value
// that is not a whole decimal number expires at once; a number expires once
// the clock passes it.
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <system_error>

#include "http/forwarder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using petstore::http::Forwarder;
  const std::string value(reinterpret_cast<const char*>(data), size);
  httplib::Request req;
  req.set_header(Forwarder::kForwardedHeader, "http://peer");
  req.set_header(Forwarder::kDeadlineHeader, value);
  const auto at = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'800'000'000'000));
  std::int64_t deadline = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), deadline);
  const bool number = ec == std::errc{} && end == value.data() + value.size();
  const bool expected = !number || deadline < 1'800'000'000'000;
  // httplib drops a header value with a line break (it could not be sent).
  if (req.get_header_value(Forwarder::kDeadlineHeader) == value && Forwarder::expired(req, at) != expected) {
    std::abort();
  }
  return 0;
}
