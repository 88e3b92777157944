#include "error/api_error.h"

#include "json/writer.h"

namespace petstore {

std::string ApiError::to_json() const {
  json::Writer out;
  out.begin_object();
  out.field("code", code);
  out.field("message", message);
  out.field("status", static_cast<std::int64_t>(status));
  out.end_object();
  return out.finish();
}

}  // namespace petstore
