#include "http/response_writer.h"

#include <strings.h>

namespace petstore::http {
namespace {

bool framing_header(const std::string& name) {
  // Framing is this writer's job; a handler's value would contradict it.
  return strcasecmp(name.c_str(), "Content-Length") == 0 || strcasecmp(name.c_str(), "Connection") == 0 ||
         strcasecmp(name.c_str(), "Transfer-Encoding") == 0;
}

}  // namespace

const char* reason_phrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 411:
      return "Length Required";
    case 412:
      return "Precondition Failed";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Content";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

std::string serialize_response(const httplib::Response& res, bool head_request, bool keep_alive) {
  const bool bodiless_status = res.status == 204 || res.status == 304 || res.status < 200;
  std::string out;
  out.reserve(256 + res.body.size());
  out += "HTTP/1.1 ";
  out += std::to_string(res.status);
  out += ' ';
  out += reason_phrase(res.status);
  out += "\r\n";
  for (const auto& [name, value] : res.headers) {
    if (framing_header(name)) {
      continue;
    }
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  if (!bodiless_status) {
    out += "Content-Length: ";
    out += std::to_string(res.body.size());
    out += "\r\n";
  }
  if (!keep_alive) {
    out += "Connection: close\r\n";
  }
  out += "\r\n";
  if (!head_request && !bodiless_status) {
    out += res.body;
  }
  return out;
}

}  // namespace petstore::http
