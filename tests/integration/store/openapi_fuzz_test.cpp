// A stateful OpenAPI fuzzer against the store as operators run it: two
// replicas of each service behind the entry point. schemathesis (pinned in
// tests/contract/schemathesis/requirements.txt; scripts/test installs it
// and names it in PETSTORE_SCHEMATHESIS) generates requests from
// schemas/openapi.yaml, chains them through the ids the answers carry, and
// runs every check it has for a bounded time; any finding fails this test
// unless tests/contract/schemathesis/baseline.txt lists it with the reason
// it is a false positive (tests/contract/schemathesis/run.py compares).
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/service_process.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

TEST(OpenApiFuzz, SchemathesisFindsNothingOutsideTheBaseline) {
  const char* st = std::getenv("PETSTORE_SCHEMATHESIS");
  ASSERT_NE(st, nullptr) << "PETSTORE_SCHEMATHESIS names no schemathesis (scripts/test installs it: "
                            "scripts/lib.sh, schemathesis_venv)";
  StoreDeployment store(2);
  const std::string dir = PETSTORE_SOURCE_DIR "/tests/contract/schemathesis";
  // PETSTORE_FUZZ_API_SECONDS: another budget; PETSTORE_FUZZ_API_REPORTS: a
  // folder to keep schemathesis' reports in.
  const char* seconds = std::getenv("PETSTORE_FUZZ_API_SECONDS");
  const char* reports = std::getenv("PETSTORE_FUZZ_API_REPORTS");
  const auto run = run_command("python3 " + dir + "/run.py --st " + st +
                               " --url http://127.0.0.1:" + std::to_string(store.entry_port()) +
                               " --api-key " + store.api_key() + " --admin-token " + kAdminToken +
                               " --seconds " + (seconds != nullptr ? seconds : "150") +
                               (reports != nullptr ? std::string(" --report-dir ") + reports : "") + " 2>&1");
  std::cout << run.out;
  EXPECT_EQ(run.status, 0) << "schemathesis found what the baseline does not list (above)";
}

}  // namespace
}  // namespace petstore::testing
