#include "http/router.h"

#include "error/codes.h"
#include "http/response.h"

namespace petstore::http {
namespace {

ApiError error_for_bare_status(int status) {
  switch (status) {
    case 413:
      return {413, codes::kPayloadTooLarge, "request body exceeds the size limit"};
    case 400:
      return {400, codes::kBadRequest, "the request is not valid HTTP or lacks a Content-Length"};
    case 414:
      return {414, codes::kBadRequest, "request URI too long"};
    default:
      return {status, codes::kInternalError, "request failed"};
  }
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
  auto source = template_to_regex(path);
  std::regex pattern(source);
  routes_.push_back(
      {std::move(method), std::move(path), std::move(source), std::move(pattern), std::move(handler)});
}

std::string Router::allowed_methods(const std::string& path) const {
  std::string allow;
  for (const auto& r : routes_) {
    if (std::regex_match(path, r.pattern) && allow.find(r.method) == std::string::npos) {
      allow += allow.empty() ? r.method : ", " + r.method;
    }
  }
  return allow;
}

void Router::install(httplib::Server& server) const {
  for (const auto& route : routes_) {
    // httplib compiles the same pattern, so req.matches carries the path
    // parameters in template order.
    const auto& re = route.regex_source;
    auto wrapped = [handler = route.handler](const httplib::Request& req, httplib::Response& res) {
      try {
        handler(req, res);
      } catch (...) {
        send_error(res, error_from(std::current_exception()));
      }
    };
    if (route.method == "GET") {
      server.Get(re, wrapped);
    } else if (route.method == "POST") {
      server.Post(re, wrapped);
    } else if (route.method == "PUT") {
      server.Put(re, wrapped);
    } else if (route.method == "DELETE") {
      server.Delete(re, wrapped);
    } else if (route.method == "PATCH") {
      server.Patch(re, wrapped);
    }
  }

  server.set_pre_routing_handler([hooks = before_](const httplib::Request& req, httplib::Response& res) {
    for (const auto& hook : hooks) {
      try {
        if (hook(req, res)) {
          return httplib::Server::HandlerResponse::Handled;
        }
      } catch (...) {
        send_error(res, error_from(std::current_exception()));
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  // httplib calls this for every response of status >= 400, including those
  // our handlers produced; only bare statuses from routing or parsing (no
  // body yet) are turned into Errors here.
  server.set_error_handler(httplib::Server::HandlerWithResponse([this](const httplib::Request& req,
                                                                       httplib::Response& res) {
    if (!res.body.empty()) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    if (res.status == 404) {
      const auto allow = allowed_methods(req.path);
      if (!allow.empty()) {
        ApiError e(405, codes::kMethodNotAllowed, req.method + " is not allowed on " + req.path);
        e.headers.emplace_back("Allow", allow);
        send_error(res, e);
      } else {
        send_error(res, ApiError(404, codes::kRouteNotFound, "no route for " + req.method + " " + req.path));
      }
    } else {
      send_error(res, error_for_bare_status(res.status));
    }
    return httplib::Server::HandlerResponse::Handled;
  }));

  server.set_exception_handler([](const httplib::Request&, httplib::Response& res,
                                  const std::exception_ptr& ep) { send_error(res, error_from(ep)); });

  server.set_post_routing_handler([hooks = after_](const httplib::Request& req, httplib::Response& res) {
    for (const auto& hook : hooks) {
      hook(req, res);
    }
  });
}

}  // namespace petstore::http
