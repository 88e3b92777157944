#include "http/api_error.h"

#include "json/writer.h"
#include "text/utf8.h"

namespace petstore {

std::string ApiError::to_json() const {
  json::Writer out;
  out.begin_object();
  out.field("code", code);
  // Messages may quote what the client sent (a path, a field name): never
  // let its bytes make the body invalid UTF-8, and so invalid JSON.
  out.field("message", text::is_valid_utf8(message) ? message : text::to_valid_utf8(message));
  out.field("status", static_cast<std::int64_t>(status));
  out.end_object();
  return out.finish();
}

}  // namespace petstore
