#include "http/request.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "error/codes.h"
#include "http/api_error.h"
#include "text/ascii.h"

namespace petstore::http {
namespace {

std::optional<std::int64_t> parse_positive(std::string_view text) {
  if (text.empty() || text.size() > 19 || text.front() == '0' || text.front() == '+') {
    return std::nullopt;
  }
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || ptr != end || v <= 0) {
    return std::nullopt;
  }
  return v;
}

[[noreturn]] void bad_query(std::string message) {
  throw ApiException(ApiError(400, codes::kInvalidQuery, std::move(message)));
}

std::string url_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4U]);
      out.push_back(kHex[u & 0x0FU]);
    }
  }
  return out;
}

// A qvalue (RFC 9110, section 12.4.2) in thousandths, or -1 if malformed.
int qvalue(std::string_view q) {
  if (q.empty() || q.size() > 5 || (q[0] != '0' && q[0] != '1') || (q.size() > 1 && q[1] != '.')) {
    return -1;
  }
  int thousandths = (q[0] - '0') * 1000;
  int scale = 100;
  for (size_t i = 2; i < q.size(); ++i, scale /= 10) {
    if (q[i] < '0' || q[i] > '9') {
      return -1;
    }
    thousandths += (q[i] - '0') * scale;
  }
  return thousandths > 1000 ? -1 : thousandths;
}

}  // namespace

std::string_view response_coding(std::string_view accept_encoding,
                                 std::initializer_list<std::string_view> available) {
  // Each coding's weight in thousandths: -1 when not named.
  constexpr int kUnnamed = -1;
  int identity = kUnnamed;
  int any = kUnnamed;
  std::vector<int> weights(available.size(), kUnnamed);
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    auto element = accept_encoding.substr(0, comma);
    accept_encoding =
        comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    const auto semicolon = element.find(';');
    const auto coding = text::trim_ows(element.substr(0, semicolon));
    if (coding.empty()) {
      continue;
    }
    int weight = 1000;
    for (auto params = semicolon == std::string_view::npos ? std::string_view()
                                                           : element.substr(semicolon + 1);
         !params.empty();) {
      const auto next = params.find(';');
      const auto param = text::trim_ows(params.substr(0, next));
      params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
      if (param.size() >= 2 && (param[0] | 0x20) == 'q' && param[1] == '=') {
        weight = std::max(qvalue(param.substr(2)), 0);
      }
    }
    if (coding == "*") {
      any = weight;
    } else if (text::equals_ignoring_case(coding, "identity")) {
      identity = weight;
    }
    size_t i = 0;
    for (const auto name : available) {
      if (text::equals_ignoring_case(coding, name) ||
          (name == "gzip" && text::equals_ignoring_case(coding, "x-gzip"))) {
        weights[i] = weight;
      }
      ++i;
    }
  }
  std::string_view best;
  int best_weight = 0;
  for (size_t i = 0; i < available.size(); ++i) {
    const int weight = weights[i] == kUnnamed ? std::max(any, 0) : weights[i];
    if (weight > best_weight) {
      best = *(available.begin() + i);
      best_weight = weight;
    }
  }
  const int identity_weight = identity != kUnnamed ? identity : (any != kUnnamed ? any : 1000);
  return best_weight > 0 && best_weight >= identity_weight ? best : std::string_view();
}

void require_json_body(const httplib::Request& req) {
  const auto type = req.get_header_value("Content-Type");
  auto base = std::string_view(type).substr(0, type.find(';'));
  while (!base.empty() && (base.back() == ' ' || base.back() == '\t')) {
    base.remove_suffix(1);
  }
  if (!text::equals_ignoring_case(base, "application/json")) {
    throw ApiException(ApiError(415, codes::kUnsupportedMediaType,
                                "Content-Type must be application/json, got '" + type.substr(0, 100) + "'"));
  }
  if (req.body.empty()) {
    throw ApiException(ApiError(400, codes::kMalformedJson, "request body is required"));
  }
}

Query::Query(const httplib::Request& req, std::initializer_list<std::string_view> allowed) : req_(req) {
  for (const auto& [name, value] : req.params) {
    bool known = false;
    for (const auto a : allowed) {
      known = known || a == name;
    }
    if (!known) {
      bad_query("unknown query parameter '" + name + "'");
    }
    if (req.get_param_value_count(name.c_str()) > 1) {
      bad_query("query parameter '" + name + "' is given more than once");
    }
  }
}

std::optional<std::string> Query::text(const char* name) const {
  if (!req_.has_param(name)) {
    return std::nullopt;
  }
  return req_.get_param_value(name);
}

std::optional<std::int64_t> Query::id(const char* name) const {
  const auto t = text(name);
  if (!t) {
    return std::nullopt;
  }
  const auto v = parse_positive(*t);
  if (!v) {
    bad_query(std::string(name) + " must be a positive 64-bit integer");
  }
  return v;
}

std::optional<bool> Query::boolean(const char* name) const {
  const auto t = text(name);
  if (!t) {
    return std::nullopt;
  }
  if (*t == "true") {
    return true;
  }
  if (*t == "false") {
    return false;
  }
  bad_query(std::string(name) + " must be true or false");
}

readmodel::PageRequest page_request(const Query& q) {
  readmodel::PageRequest page;
  if (const auto limit = q.text("limit")) {
    const auto v = parse_positive(*limit);
    if (!v || *v > readmodel::PageRequest::kMaxLimit) {
      bad_query("limit must be an integer from 1 to " + std::to_string(readmodel::PageRequest::kMaxLimit));
    }
    page.limit = *v;
  }
  if (const auto cursor = q.text("cursor")) {
    const auto v = parse_positive(*cursor);
    if (!v) {
      bad_query("cursor is not one this service issued");
    }
    page.after = *v;
  }
  return page;
}

std::string next_link(const httplib::Request& req, std::int64_t next_cursor) {
  std::string url = req.path + "?";
  for (const auto& [name, value] : req.params) {
    if (name != "cursor") {
      url += url_encode(name) + "=" + url_encode(value) + "&";
    }
  }
  url += "cursor=" + std::to_string(next_cursor);
  return "<" + url + ">; rel=\"next\"";
}

std::string field_list(const httplib::Request& req, const char* name) {
  std::string list;
  for (size_t i = 0, n = req.get_header_value_count(name); i < n; ++i) {
    list += (i == 0 ? "" : ",") + req.get_header_value(name, i);
  }
  return list;
}

std::optional<std::string> idempotency_key(const httplib::Request& req) {
  const auto sent = req.get_header_value_count("Idempotency-Key");
  if (sent == 0) {
    return std::nullopt;
  }
  // One key names one operation; of two, either could be the client's.
  if (sent > 1) {
    throw ApiException(ApiError(400, codes::kInvalidHeader, "send one Idempotency-Key header, not several"));
  }
  auto key = req.get_header_value("Idempotency-Key");
  bool visible = !key.empty() && key.size() <= 255;
  for (const char c : key) {
    visible = visible && c > 0x20 && c < 0x7F;
  }
  if (!visible) {
    throw ApiException(
        ApiError(400, codes::kInvalidHeader, "Idempotency-Key must be 1 to 255 visible ASCII characters"));
  }
  return key;
}

void check_if_match(const httplib::Request& req, std::int64_t current_version) {
  if (req.get_header_value_count("If-Match") == 0) {
    return;
  }
  const auto malformed = [] {
    return ApiException(ApiError(400, codes::kInvalidHeader,
                                 "If-Match must be \"*\" or a list of entity tags such as \"3\""));
  };
  // "*" or #entity-tag (RFC 9110, sections 8.8.3 and 13.1.1), also over
  // several lines (nginx in front refuses a second line itself; a replica
  // reached directly reads them all). A comma may stand inside a tag.
  const auto header = field_list(req, "If-Match");
  const auto expected = "\"" + std::to_string(current_version) + "\"";
  std::string_view rest = header;
  bool any_tag = false;
  for (;;) {
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t' || rest.front() == ',')) {
      rest.remove_prefix(1);
    }
    if (rest.empty()) {
      break;
    }
    if (rest.front() == '*') {
      // "*" stands alone (RFC 9110, section 13.1.1).
      rest.remove_prefix(1);
      if (any_tag || rest.find_first_not_of(" \t,") != std::string_view::npos) {
        throw malformed();
      }
      return;
    }
    const bool weak = rest.starts_with("W/");
    if (weak) {
      rest.remove_prefix(2);
    }
    const auto close = rest.empty() || rest.front() != '"' ? std::string_view::npos : rest.find('"', 1);
    if (close == std::string_view::npos) {
      throw malformed();
    }
    const auto tag = rest.substr(0, close + 1);
    for (const char ch : tag.substr(1, tag.size() - 2)) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x21 || c == 0x7F) {
        throw malformed();
      }
    }
    rest.remove_prefix(close + 1);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) {
      rest.remove_prefix(1);
    }
    if (!rest.empty() && rest.front() != ',') {
      throw malformed();
    }
    if (!weak && tag == expected) {
      return;
    }
    any_tag = true;
  }
  if (!any_tag) {
    throw ApiException(ApiError(400, codes::kInvalidHeader, "If-Match is empty"));
  }
  throw ApiException(
      ApiError(412, codes::kPreconditionFailed, "If-Match does not match the current version " + expected));
}

}  // namespace petstore::http
