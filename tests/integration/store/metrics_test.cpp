// Operators watch the store through Prometheus: a real Prometheus
// (Debian's), configured from deploy/prometheus/local.yml.template as
// scripts/up --with-prometheus renders it, scrapes every replica of a
// deployment at its own address, and after some traffic finds a series of
// every family the services serve: HTTP, Kafka's producers, transactions
// and consumers, the projections, the rate limiter and the process. The
// entry point does not pass /metrics on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/eventually.h"
#include "support/http_json.h"
#include "support/service_process.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// How many series Prometheus holds for `query` now (an instant query).
int series(httplib::Client& prometheus, const std::string& query) {
  const auto r = prometheus.Get("/api/v1/query", {{"query", query}}, httplib::Headers{});
  if (!r || r->status != 200) {
    return -1;
  }
  const auto doc = parse(r->body);
  return static_cast<int>(doc["data"]["result"].Size());
}

TEST(Metrics, PrometheusScrapesEveryReplicaAndFindsEachFamily) {
  StoreDeployment store(2);
  auto http = store.client();
  const auto stocked = stocked_pets(*http, "Metrics", 1, 5);
  ASSERT_TRUE(stocked.stocked);
  const auto order =
      post_json(*http, "/store/orders", R"({"petId":)" + std::to_string(stocked.pets[0]) + "}");
  ASSERT_TRUE(order && (order->status == 201 || order->status == 202)) << (order ? order->body : "no answer");
  const auto through_entry = http->Get("/metrics");
  ASSERT_TRUE(through_entry);
  EXPECT_EQ(through_entry->status, 404) << "the entry point passed /metrics on";

  std::string jobs;  // as scripts/lib.sh's scrape_job writes them
  for (const auto& service : StoreDeployment::services()) {
    std::string targets;
    for (size_t i = 0; i < 2; ++i) {
      const auto& replica = store.replica(service, i);
      EXPECT_EQ(replica.client()->Get("/metrics")->status, 200);
      targets.append(targets.empty() ? "\"" : ", \"")
          .append("127.0.0.1:")
          .append(std::to_string(replica.port()));
      targets += '"';
    }
    jobs.append("  - job_name: ").append(service).append("\n    static_configs: [{targets: [");
    jobs.append(targets).append("]}]\n");
  }
  const auto dir = std::filesystem::temp_directory_path() / ("petstore-prometheus-" + store.prefix());
  std::filesystem::create_directories(dir);
  const std::string conf_dir = std::string(PETSTORE_SOURCE_DIR) + "/deploy/prometheus";
  auto conf = read_file(conf_dir + "/local.yml.template");
  replace_all(conf, "@SCRAPE_INTERVAL@", "1s");
  replace_all(conf, "@CONF_DIR@", conf_dir);
  replace_all(conf, "@SCRAPE_JOBS@\n", jobs);
  std::ofstream((dir / "prometheus.yml").string()) << conf;
  const int port = free_port();
  ServiceProcess prometheus(
      "/usr/bin/prometheus",
      {"--config.file=" + (dir / "prometheus.yml").string(), "--storage.tsdb.path=" + (dir / "data").string(),
       "--web.listen-address=127.0.0.1:" + std::to_string(port)},
      port, "/-/ready");
  prometheus.wait_ready(std::chrono::seconds(60));
  auto client = prometheus.client();

  EXPECT_TRUE(eventually([&] { return series(*client, "up == 1") == 6; }, std::chrono::seconds(60)))
      << "not every replica was scraped: " << series(*client, "up == 1") << " of 6 up";
  // One family of each kind, on each service where it belongs.
  const std::vector<std::string> queries = {
      R"(petstore_http_requests_total{job="pets",route="/pets",method="POST",status="201"})",
      R"(petstore_http_request_duration_seconds_bucket{job="orders",route="/store/orders",le="+Inf"})",
      R"(petstore_http_requests_in_flight{job="inventory"})",
      R"(petstore_kafka_produce_latency_seconds_count{job="pets"})",
      R"(petstore_kafka_transactions_total{job="orders",outcome="committed"})",
      R"(petstore_kafka_transaction_records_total{job="pets",topic=~".*pets"})",
      R"(petstore_kafka_consumer_lag{job="inventory"})",
      R"(petstore_kafka_consumer_position{job="orders"})",
      R"(petstore_projection_ready{job="pets",service="pets"} == 1)",
      R"(petstore_ratelimit_decisions_total{plan="enterprise",outcome="admitted"})",
      R"(process_cpu_seconds_total{job="inventory"})",
      R"(process_open_fds{job="orders"})",
  };
  for (const auto& q : queries) {
    EXPECT_TRUE(eventually([&] { return series(*client, q) > 0; }, std::chrono::seconds(30))) << q;
  }
}

}  // namespace
}  // namespace petstore::testing
