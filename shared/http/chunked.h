#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace petstore::http {

// A request body in the chunked transfer coding (RFC 9112, section 7.1),
// read strictly: a chunk size is 1 to 16 hex digits and nothing else (no
// sign, no "0x", no spaces), a chunk extension is ";" and visible text,
// every line ends in CRLF, a chunk's data is followed by CRLF exactly (data
// longer than its size is malformed), and the trailer section's fields are
// checked and dropped, never merged into the headers; one that frames or
// routes a message (Content-Length, Transfer-Encoding, Host) is malformed.
struct ChunkedBody {
  enum class Outcome { Whole, Malformed, TooLarge, Incomplete };
  Outcome outcome = Outcome::Whole;
  std::string data;  // the body, when Whole
  std::string why;   // for the client, when not Whole
};

// Up to `max` bytes into `out`: how many, or 0 when no more come (the end
// of the connection, a timeout).
using ReadSome = std::function<std::size_t(char* out, std::size_t max)>;

// Reads one chunked body from `read`, consuming nothing past its end: the
// next request on the connection starts at the byte after. A body over
// `max_bytes` (decoded) is TooLarge, as soon as a chunk size says so.
ChunkedBody read_chunked(const ReadSome& read, std::size_t max_bytes);

}  // namespace petstore::http
