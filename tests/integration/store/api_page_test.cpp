// The API page (docs/api.md): the entry point serves Swagger UI over
// schemas/openapi.yaml at /docs, from its own files. Headless Chromium
// opens it; every operation of the document is listed, and the deprecated
// one is marked so.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "support/store_deployment.h"

#include <httplib.h>

namespace petstore::testing {
namespace {

// The page as Chromium rendered it, scripts run (--dump-dom).
std::string rendered(const std::string& url) {
  const auto command =
      "chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=20000 "
      "--dump-dom '" +
      url + "' 2>/dev/null";
  // NOLINTNEXTLINE(bugprone-command-processor,cert-env33-c): the test's own command
  std::unique_ptr<FILE, int (*)(FILE*)> out(popen(command.c_str(), "r"), pclose);
  std::string dom;
  std::array<char, 65536> buf{};
  for (size_t n = 0; out && (n = fread(buf.data(), 1, buf.size(), out.get())) > 0;) {
    dom.append(buf.data(), n);
  }
  return dom;
}

// The class attribute of the element whose id is `id`, or nullopt when
// the page has none.
std::optional<std::string> class_of(const std::string& dom, const std::string& id) {
  const auto at = dom.find(" id=\"" + id + "\"");
  if (at == std::string::npos) {
    return std::nullopt;
  }
  const auto open = dom.rfind('<', at);
  const auto cls = dom.find("class=\"", open);
  if (cls == std::string::npos || cls > at) {
    return std::string();
  }
  const auto from = cls + 7;
  return dom.substr(from, dom.find('"', from) - from);
}

class ApiPage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { store_ = std::make_unique<StoreDeployment>(1); }
  static void TearDownTestSuite() { store_.reset(); }
  static std::unique_ptr<StoreDeployment> store_;
};
std::unique_ptr<StoreDeployment> ApiPage::store_;

TEST_F(ApiPage, ListsEveryOperationAndMarksTheDeprecatedOne) {
  const auto base = "http://127.0.0.1:" + std::to_string(store_->entry_port());
  const auto dom = rendered(base + "/docs/");
  ASSERT_NE(dom.find("swagger-ui"), std::string::npos) << dom.substr(0, 2000);

  const auto doc = YAML::LoadFile(std::string(PETSTORE_SOURCE_DIR) + "/schemas/openapi.yaml");
  int operations = 0;
  int deprecated = 0;
  for (const auto& path : doc["paths"]) {
    for (const auto& op : path.second) {
      if (!op.second.IsMap() || !op.second["operationId"]) {
        continue;  // path-level parameters
      }
      const auto id = op.second["operationId"].as<std::string>();
      const auto tag = op.second["tags"] ? op.second["tags"][0].as<std::string>() : std::string("default");
      auto element = "operations-" + tag;
      element += "-" + id;
      const auto cls = class_of(dom, element);
      ++operations;
      ASSERT_TRUE(cls) << op.first.as<std::string>() << " " << path.first.as<std::string>() << " (" << id
                       << ") is not listed";
      const bool marked = cls->find("opblock-deprecated") != std::string::npos;
      const bool is = op.second["deprecated"] && op.second["deprecated"].as<bool>();
      EXPECT_EQ(marked, is) << id << ": class \"" << *cls << "\"";
      deprecated += is ? 1 : 0;
    }
  }
  EXPECT_GT(operations, 20);
  EXPECT_EQ(deprecated, 1) << "the document deprecates getPet";
}

TEST_F(ApiPage, ServesTheDocumentTheServicesAreTestedAgainst) {
  httplib::Client http("127.0.0.1", store_->entry_port());
  const auto bare = http.Get("/docs");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 301);
  EXPECT_EQ(bare->get_header_value("Location"), "/docs/");
  const auto yaml = http.Get("/docs/openapi.yaml");
  ASSERT_TRUE(yaml);
  EXPECT_EQ(yaml->status, 200);
  std::ifstream in(std::string(PETSTORE_SOURCE_DIR) + "/schemas/openapi.yaml");
  std::stringstream file;
  file << in.rdbuf();
  EXPECT_TRUE(yaml->body == file.str()) << "/docs/openapi.yaml is not schemas/openapi.yaml";
  const auto page = http.Get("/docs/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html");
  EXPECT_EQ(http.Get("/docs/swagger-ui-bundle.js")->get_header_value("Content-Type"),
            "application/javascript");
}

}  // namespace
}  // namespace petstore::testing
