#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace petstore::http {

// One header field line as the client sent it: the value without the
// whitespace around it, and otherwise untouched (no percent-decoding; an
// empty value is a value).
struct HeadField {
  std::string name;
  std::string value;
};

// A request's line and header fields, read by the connection loop itself
// (RFC 9112, sections 2 to 5) before cpp-httplib 0.11.4 parses them: its
// parser refuses methods it does not know and any HTTP/1.x but 1.0 and 1.1,
// refuses empty lines before the request line, drops a field whose value is
// empty, skips lines without a colon, and percent-decodes every value.
struct RequestHead {
  std::string method;
  std::string target;
  std::string version;  // HTTP/1.0 or HTTP/1.1; a later HTTP/1.x is read as 1.1
  std::vector<HeadField> fields;
};

struct HeadScan {
  enum class Outcome {
    Incomplete,           // the empty line that ends the head has not come yet
    Whole,                // `head` holds it, and it took `consumed` bytes
    Malformed,            // 400, `why` says what
    VersionNotSupported,  // 505: an HTTP major version other than 1
  };
  Outcome outcome = Outcome::Incomplete;
  RequestHead head;
  size_t consumed = 0;
  std::string why;
};

// Scans `bytes`, the start of a request on a connection. Empty lines before
// the request line are skipped (RFC 9112, section 2.2), and a line may end in
// a bare LF. Refused: a request line that is not three parts split by single
// spaces, a method that is not a token, control bytes in the target, a
// version that is not HTTP/<digit>.<digit>, a field name that is not a token
// or is followed by whitespace, obsolete line folding, a bare CR, and control
// bytes other than HTAB in a value.
HeadScan scan_request_head(std::string_view bytes);

// Whether cpp-httplib 0.11.4 parses a request line with this method.
bool parser_knows_method(std::string_view method);

// The head as cpp-httplib is given it, so that it parses what the client
// meant: CRLF line ends; a method it does not know replaced by TRACE (which
// it hands to our pre-routing step, where the real method is put back); each
// '%' of a value as "%25", which its percent-decoding turns back into '%';
// fields with an empty value left out (the pre-routing step restores them);
// and Expect left out of an HTTP/1.0 request, which must not get a 100
// Continue (RFC 9110, section 10.1.1).
std::string canonical_head(const RequestHead& head);

}  // namespace petstore::http
