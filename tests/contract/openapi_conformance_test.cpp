// The OpenAPI document and the services' route tables must name the same
// operations: a served route missing from the document, or a documented one
// no service serves, fails here. Every service of services/services.txt
// (service::all_services) is built offline: constructing one opens no
// connection, and only its route table is read.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include <map>
#include <string>

#include "config/env.h"
#include "service/descriptor.h"

namespace petstore {
namespace {

using Operations = std::set<std::string>;  // "GET /pets/{petId}"

YAML::Node load_document() {
  return YAML::LoadFile(std::string(PETSTORE_SOURCE_DIR) + "/schemas/openapi.yaml");
}

Operations documented(const YAML::Node& doc) {
  Operations ops;
  for (const auto& path : doc["paths"]) {
    for (const auto& op : path.second) {
      auto method = op.first.as<std::string>();
      if (method == "parameters") {
        continue;
      }
      std::transform(method.begin(), method.end(), method.begin(), ::toupper);
      ops.insert(method + " " + path.first.as<std::string>());
    }
  }
  return ops;
}

Operations served() {
  Operations ops;
  const config::Env env(std::map<std::string, std::string>{{"KAFKA_BROKERS", "127.0.0.1:1"}});
  for (const auto* descriptor : service::all_services()) {
    const auto service = descriptor->make(env, descriptor->configuration(env));
    for (const auto& route : service->router().routes()) {
      const auto op = route.method + " " + route.path;
      // Every service serves the platform's routes (/healthz, /readyz, the
      // admin API and its peers' relayed saga steps); any other route
      // belongs to one.
      const bool platform = op == "GET /healthz" || op == "GET /readyz" || op == "GET /metrics" ||
                            op.find(" /admin/") != std::string::npos ||
                            op.find(" /internal/") != std::string::npos;
      EXPECT_TRUE(ops.insert(op).second || platform) << op << " is served by two services";
    }
  }
  return ops;
}

TEST(OpenApi, DocumentAndServedRoutesAgree) {
  const auto doc = documented(load_document());
  const auto all = served();
  for (const auto& op : all) {
    EXPECT_TRUE(doc.contains(op)) << op << " is served but not in schemas/openapi.yaml";
  }
  for (const auto& op : doc) {
    EXPECT_TRUE(all.contains(op)) << op << " is documented but no service serves it";
  }
}

TEST(OpenApi, VersionsTagsDeprecationAndStability) {
  const auto doc = load_document();
  EXPECT_EQ(doc["openapi"].as<std::string>(), "3.0.3");
  EXPECT_EQ(doc["info"]["version"].as<std::string>(), "1.0.0");
  const auto get_pet = doc["paths"]["/pets/{petId}"]["get"];
  EXPECT_TRUE(get_pet["deprecated"].as<bool>());
  EXPECT_EQ(get_pet["x-sunset"].as<std::string>(), "2027-07-01");
  for (const auto& path : doc["paths"]) {
    for (const auto& op : path.second) {
      if (op.first.as<std::string>() == "parameters") {
        continue;
      }
      const auto tag = op.second["tags"][0].as<std::string>();
      EXPECT_TRUE(tag == "Pets" || tag == "Store" || tag == "Operations" || tag == "Admin") << path.first;
      if (op.second["x-stability"]) {
        const auto s = op.second["x-stability"].as<std::string>();
        EXPECT_TRUE(s == "experimental" || s == "beta") << path.first << ": " << s;
      }
    }
  }
}

// A parameter's value can make the request line too long for any route
// that takes one (the limits of info's conventions), so each such
// operation documents the 414 it then gets.
TEST(OpenApi, OperationsWithParametersDocumentTheRequestLineLimit) {
  const auto doc = load_document();
  for (const auto& path : doc["paths"]) {
    const bool path_parameters = static_cast<bool>(path.second["parameters"]);
    for (const auto& op : path.second) {
      if (op.first.as<std::string>() == "parameters" || (!path_parameters && !op.second["parameters"])) {
        continue;
      }
      EXPECT_TRUE(op.second["responses"]["414"])
          << op.first.as<std::string>() << " " << path.first.as<std::string>();
    }
  }
}

// Every operation behind the rate limiter says so: it can answer 401 and
// 429, and its successes carry the budget headers (the shared error
// responses carry them too).
TEST(OpenApi, LimitedOperationsDocumentKeysAndBudgetHeaders) {
  const auto doc = load_document();
  EXPECT_EQ(doc["components"]["securitySchemes"]["ApiKey"]["name"].as<std::string>(), "X-API-Key");
  for (const auto& path : doc["paths"]) {
    const auto p = path.first.as<std::string>();
    if (p.starts_with("/healthz") || p.starts_with("/readyz") || p.starts_with("/admin") ||
        p.starts_with("/internal") || p == "/metrics") {
      continue;
    }
    for (const auto& op : path.second) {
      if (op.first.as<std::string>() == "parameters") {
        continue;
      }
      const auto responses = op.second["responses"];
      EXPECT_TRUE(responses["401"]) << p;
      EXPECT_TRUE(responses["429"]) << p;
      for (const auto& r : responses) {
        if (r.first.as<std::string>().starts_with("2")) {
          for (const auto* h : {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
                                "RateLimit-Policy", "RateLimit"}) {
            EXPECT_TRUE(r.second["headers"][h]) << p << " " << r.first << " lacks " << h;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace petstore
