#include "http/router.h"

#include "error/codes.h"
#include "http/response.h"

namespace petstore::http {
namespace {

std::vector<std::string> split_segments(const std::string& path) {
  std::vector<std::string> out;
  size_t pos = 1;
  while (pos <= path.size()) {
    const auto slash = path.find('/', pos);
    out.push_back(path.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos));
    if (slash == std::string::npos) {
      break;
    }
    pos = slash + 1;
  }
  return out;
}

// Whether `path` fits the template's segments; a cheap test that spares the
// regex for all routes but the one that matches.
bool fits(const std::vector<std::string>& segments, std::string_view path) {
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
    path = last ? std::string_view{} : path.substr(slash + 1);
  }
  return true;
}

void fail(httplib::Response& res, const std::exception_ptr& e) {
  send_error(res, error_from(e));
}

}  // namespace

std::string template_to_regex(const std::string& path) {
  std::string re = "^";
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '{') {
      i = path.find('}', i);
      re += "([^/]+)";
    } else if (std::string_view(".+*?^$()[]|\\").find(path[i]) != std::string_view::npos) {
      re += '\\';
      re += path[i];
    } else {
      re += path[i];
    }
  }
  return re + "$";
}

void Router::add(std::string method, std::string path, Handler handler) {
  auto segments = split_segments(path);
  std::regex pattern(template_to_regex(path));
  routes_.push_back(
      {std::move(method), std::move(path), std::move(segments), std::move(pattern), std::move(handler), {}});
}

void Router::add_async(std::string method, std::string path, AsyncHandler handler) {
  auto segments = split_segments(path);
  std::regex pattern(template_to_regex(path));
  routes_.push_back(
      {std::move(method), std::move(path), std::move(segments), std::move(pattern), {}, std::move(handler)});
}

std::string Router::allowed_methods(const std::string& path) const {
  std::string allow;
  for (const auto& r : routes_) {
    if (fits(r.segments, path) && allow.find(r.method) == std::string::npos) {
      allow += allow.empty() ? r.method : ", " + r.method;
    }
  }
  return allow;
}

const Route* Router::find(const std::string& method, const std::string& path) const {
  const std::string_view wanted = method == "HEAD" ? std::string_view("GET") : std::string_view(method);
  for (const auto& r : routes_) {
    if (r.method == wanted && fits(r.segments, path)) {
      return &r;
    }
  }
  return nullptr;
}

void Router::dispatch(const ExchangePtr& ex, WorkerPool& workers, Done done) const {
  const Done finish = [this, ex, done = std::move(done)] {
    for (const auto& hook : after_) {
      hook(ex->req, ex->res);
    }
    done();
  };
  run_before(0, ex, workers, finish);
}

void Router::run_before(size_t index, const ExchangePtr& ex, WorkerPool& workers, const Done& finish) const {
  if (index == before_.size()) {
    route(ex, workers, finish);
    return;
  }
  try {
    before_[index](ex, [this, index, ex, &workers, finish](bool answered) {
      if (answered) {
        finish();
      } else {
        run_before(index + 1, ex, workers, finish);
      }
    });
  } catch (...) {
    // Hooks call next() last, so a hook that throws has not answered yet.
    fail(ex->res, std::current_exception());
    finish();
  }
}

void Router::route(const ExchangePtr& ex, WorkerPool& workers, const Done& finish) const {
  auto& req = ex->req;
  const Route* r = find(req.method, req.path);
  if (r == nullptr) {
    const auto allow = allowed_methods(req.path);
    if (!allow.empty()) {
      ApiError e(405, codes::kMethodNotAllowed, req.method + " is not allowed on " + req.path);
      e.headers.emplace_back("Allow", allow);
      send_error(ex->res, e);
    } else {
      send_error(ex->res,
                 ApiError(404, codes::kRouteNotFound, "no route for " + req.method + " " + req.path));
    }
    finish();
    return;
  }
  std::regex_match(req.path, req.matches, r->pattern);

  if (r->async_handler) {
    try {
      r->async_handler(ex, finish);
    } catch (...) {
      fail(ex->res, std::current_exception());
      finish();
    }
    return;
  }
  const bool queued = workers.try_post([ex, r, finish] {
    try {
      r->handler(ex->req, ex->res);
    } catch (...) {
      fail(ex->res, std::current_exception());
    }
    finish();
  });
  if (!queued) {
    send_error(ex->res,
               ApiError(503, codes::kOverloaded, "the service has too many requests in progress; retry")
                   .retry_after(1));
    finish();
  }
}

void complete(const ExchangePtr& ex, const Done& done, const std::function<void(httplib::Response&)>& fill) {
  try {
    fill(ex->res);
  } catch (...) {
    fail(ex->res, std::current_exception());
  }
  done();
}

}  // namespace petstore::http
