#include "http/router.h"

#include <charconv>

#include "error/codes.h"
#include "http/response.h"

namespace petstore::http {
namespace {

// Whether `path` fits the template's segments; collects the parameter values
// into `params` when it does. Linear in the path's length, no recursion.
bool fits(const std::vector<std::string>& segments, std::string_view path, std::vector<std::string>* params) {
  if (path.empty() || path.front() != '/') {
    return false;
  }
  path.remove_prefix(1);
  for (size_t i = 0; i < segments.size(); ++i) {
    const auto slash = path.find('/');
    const auto part = path.substr(0, slash);
    const bool last = i + 1 == segments.size();
    if (last != (slash == std::string_view::npos)) {
      return false;
    }
    const auto& s = segments[i];
    const bool parameter = !s.empty() && s.front() == '{';
    if (parameter ? part.empty() : part != s) {
      return false;
    }
    if (parameter && params != nullptr) {
      params->emplace_back(part);
    }
    path = last ? std::string_view{} : path.substr(slash + 1);
  }
  return true;
}

void fail(httplib::Response& res, const std::exception_ptr& e) {
  send_error(res, error_from(e));
}

}  // namespace

std::int64_t PathParams::id(size_t index, const char* name) const {
  const std::string_view text = values_.at(index);
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const bool positive = !text.empty() && text.size() <= 19 && text.front() != '0' && text.front() != '+' &&
                        ec == std::errc{} && ptr == end && v > 0;
  if (!positive) {
    throw ApiException(ApiError(400, codes::kInvalidId,
                                std::string(name) + " must be a positive 64-bit integer, got '" +
                                    std::string(text.substr(0, 40)) + "'"));
  }
  return v;
}

std::vector<std::string> split_template(std::string_view path) {
  std::vector<std::string> out;
  size_t pos = 1;
  while (pos <= path.size()) {
    const auto slash = path.find('/', pos);
    out.emplace_back(
        path.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos));
    if (slash == std::string_view::npos) {
      break;
    }
    pos = slash + 1;
  }
  return out;
}

void Router::add(std::string method, std::string path, Handler handler) {
  auto segments = split_template(path);
  routes_.push_back({std::move(method), std::move(path), std::move(segments), std::move(handler)});
}

std::string Router::allowed_methods(std::string_view path) const {
  std::string allow;
  for (const auto& r : routes_) {
    if (fits(r.segments, path, nullptr) && allow.find(r.method) == std::string::npos) {
      allow += allow.empty() ? r.method : ", " + r.method;
    }
  }
  return allow;
}

Match Router::match(std::string_view method, std::string_view path) const {
  const std::string_view wanted = method == "HEAD" ? std::string_view("GET") : method;
  for (const auto& r : routes_) {
    if (r.method != wanted) {
      continue;
    }
    std::vector<std::string> params;
    if (fits(r.segments, path, &params)) {
      return {&r, PathParams(std::move(params)), std::nullopt};
    }
  }
  const auto allow = allowed_methods(path);
  if (!allow.empty()) {
    ApiError e(405, codes::kMethodNotAllowed,
               std::string(method) + " is not allowed on " + std::string(path));
    e.headers.emplace_back("Allow", allow);
    return {nullptr, {}, std::move(e)};
  }
  // The path is quoted in the message; a long one is cut (the client sent it).
  constexpr size_t kQuoted = 200;
  return {nullptr,
          {},
          ApiError(404, codes::kRouteNotFound,
                   "no route for " + std::string(method) + " " + std::string(path.substr(0, kQuoted)))};
}

void Router::handle(const httplib::Request& req, httplib::Response& res) const {
  handle(req, res, match(req.method, req.path));
}

namespace {

// The deferred word decides: a refusal replaces the handler's answer; an
// admission adds its headers to it.
void settle(Deferred& later, httplib::Response& res) {
  httplib::Response word;
  bool refused = true;
  try {
    refused = later.refused(word);
  } catch (...) {
    word = httplib::Response();
    fail(word, std::current_exception());
  }
  if (refused) {
    res = std::move(word);
    return;
  }
  for (auto& [name, value] : word.headers) {
    res.headers.emplace(name, std::move(value));
  }
}

}  // namespace

void Router::handle(const httplib::Request& req, httplib::Response& res, const Match& m) const {
  std::unique_ptr<Deferred> later;
  try {
    bool answered = false;
    for (const auto& hook : before_) {
      auto admission = hook(req, res, !later && m.route != nullptr && safe_method(req.method));
      if (admission.later) {
        later = std::move(admission.later);
      }
      if (admission.answered) {
        answered = true;
        break;
      }
    }
    if (!answered) {
      if (m.error) {
        send_error(res, *m.error);
      } else {
        m.route->handler(req, res, m.params);
      }
    }
  } catch (...) {
    const auto failure = std::current_exception();
    if (!rescue_ || !rescue_(req, res, failure)) {
      fail(res, failure);
    }
  }
  if (later) {
    settle(*later, res);
  }
  for (const auto& hook : after_) {
    hook(req, res);
  }
}

}  // namespace petstore::http
