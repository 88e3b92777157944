#pragma once

#include <functional>
#include <memory>

#include <httplib.h>

namespace petstore::http {

// One request and the response being built for it. Shared, because an
// asynchronous handler finishes it on another thread (a Redis reply's)
// after the event loop that read it has moved on.
struct Exchange {
  httplib::Request req;
  httplib::Response res;
};
using ExchangePtr = std::shared_ptr<Exchange>;

// Called exactly once, from any thread, when the response is complete.
using Done = std::function<void()>;

}  // namespace petstore::http
