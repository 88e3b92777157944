#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <httplib.h>

#include "support/http_json.h"

namespace petstore::testing {

// What clients were answered while something was being done to the store,
// and which answers break its promise: no answer at all (a hang or a
// dropped connection), a 5xx other than 503, a 503 without Retry-After, or
// a 401 (the client's key missing from a registry that is not whole yet:
// the readiness gate answers before the limiter looks).
struct Tally {
  std::mutex mutex;
  std::map<std::string, int> answers;  // "503 read_model_rebuilding" -> count
  std::vector<std::string> failures;

  void record(const std::string& what, const httplib::Result& r) {
    std::lock_guard lock(mutex);
    if (!r) {
      failures.push_back(what + ": no answer (" + httplib::to_string(r.error()) + ")");
      return;
    }
    const auto key = std::to_string(r->status) + (r->status >= 400 ? " " + error_code(r) : "");
    ++answers[key];
    if ((r->status >= 500 && r->status != 503) || r->status == 401) {
      failures.push_back(what + ": " + std::to_string(r->status) + " " + r->body);
    }
    // outcome_unknown gives no retry advice: a keyless retry could write twice.
    if (r->status == 503 && !r->has_header("Retry-After") && error_code(r) != "outcome_unknown") {
      failures.push_back(what + ": 503 without Retry-After: " + r->body);
    }
  }
};

}  // namespace petstore::testing
