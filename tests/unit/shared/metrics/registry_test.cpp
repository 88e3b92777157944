// metrics::Registry renders Prometheus' text exposition format 0.0.4:
// HELP and TYPE lines, label values escaped, histograms as cumulative
// buckets with +Inf, _sum and _count; and Prometheus' own promtool
// accepts what it renders.
#include "metrics/registry.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include "metrics/process.h"

namespace petstore::metrics {
namespace {

TEST(MetricsRegistry, RendersCountersAndGaugesWithTheirLabelsEscaped) {
  Registry r;
  auto& requests = r.counter("test_requests_total", "Requests, by route.", {"route", "status"});
  requests.with({"/pets/{petId}", "200"}).inc();
  requests.with({"/pets/{petId}", "200"}).inc(2);
  requests.with({"a \"quoted\\path\"\n", "404"}).inc();
  r.gauge("test_in_flight", "In flight.\nSecond line \\ here.").with({}).set(3);
  EXPECT_EQ(r.render(),
            "# HELP test_requests_total Requests, by route.\n"
            "# TYPE test_requests_total counter\n"
            "test_requests_total{route=\"/pets/{petId}\",status=\"200\"} 3\n"
            "test_requests_total{route=\"a \\\"quoted\\\\path\\\"\\n\",status=\"404\"} 1\n"
            "# HELP test_in_flight In flight.\\nSecond line \\\\ here.\n"
            "# TYPE test_in_flight gauge\n"
            "test_in_flight 3\n");
}

TEST(MetricsRegistry, RendersAHistogramAsCumulativeBuckets) {
  Registry r;
  auto& h = r.histogram("test_duration_seconds", "Duration.", {"route"}, {0.25, 1});
  auto& pets = h.with({"/pets"});
  pets.observe(0.125);
  pets.observe(0.25);  // a bound is inclusive
  pets.observe(0.5);
  pets.observe(7);
  EXPECT_EQ(r.render(),
            "# HELP test_duration_seconds Duration.\n"
            "# TYPE test_duration_seconds histogram\n"
            "test_duration_seconds_bucket{route=\"/pets\",le=\"0.25\"} 2\n"
            "test_duration_seconds_bucket{route=\"/pets\",le=\"1\"} 3\n"
            "test_duration_seconds_bucket{route=\"/pets\",le=\"+Inf\"} 4\n"
            "test_duration_seconds_sum{route=\"/pets\"} 7.875\n"
            "test_duration_seconds_count{route=\"/pets\"} 4\n");
}

TEST(MetricsRegistry, AFamilyIsRegisteredOnceAndNamesAreChecked) {
  Registry r;
  auto& a = r.counter("test_total", "A.", {"x"});
  EXPECT_EQ(&a, &r.counter("test_total", "A.", {"x"}));
  EXPECT_THROW(r.gauge("test_total", "A gauge now."), std::invalid_argument);
  EXPECT_THROW(r.counter("9starts_with_a_digit", "No."), std::invalid_argument);
  EXPECT_THROW(r.counter("test_le_total", "No.", {"le"}), std::invalid_argument);
  EXPECT_THROW(r.counter("test_dash_total", "No.", {"a-b"}), std::invalid_argument);
}

TEST(MetricsRegistry, ACollectedFamilyIsReadAtEachScrapeAndLeftOutWhenItCannotBe) {
  Registry r;
  double value = 1;
  bool fail = false;
  r.collect("test_lag", "Lag.", "gauge", {"partition"}, [&] {
    if (fail) {
      throw std::runtime_error("cannot read");
    }
    return std::vector<Sample>{{{"0"}, value}, {{"1"}, value * 2}};
  });
  value = 5;
  EXPECT_EQ(r.render(),
            "# HELP test_lag Lag.\n# TYPE test_lag gauge\ntest_lag{partition=\"0\"} "
            "5\ntest_lag{partition=\"1\"} 10\n");
  fail = true;
  EXPECT_EQ(r.render(), "");
}

// Everything a service registers, checked by Prometheus' own linter
// (Debian's `prometheus` package; scripts/install-deps installs it).
TEST(MetricsRegistry, PromtoolAcceptsTheRenderedText) {
  Registry r;
  r.counter("petstore_test_requests_total", "Requests.", {"method", "route", "status"})
      .with({"GET", "/pets/{petId}", "200"})
      .inc();
  r.histogram("petstore_test_request_duration_seconds", "Duration.", {"route"}, latency_buckets())
      .with({"/pets"})
      .observe(0.003);
  r.gauge("petstore_test_in_flight", "In flight.").with({}).set(1);
  register_process_metrics(r);
  const auto text = r.render();
  const std::string path = testing::TempDir() + "metrics.txt";
  std::ofstream(path) << text;
  // Fixed command lines of ours, through the shell for the redirections.
  ASSERT_EQ(std::system("command -v promtool >/dev/null"), 0)  // NOLINT(bugprone-command-processor)
      << "promtool is missing: scripts/install-deps";
  const std::string command = "promtool check metrics < " + path + " > " + path + ".out 2>&1";
  const int rc = std::system(command.c_str());  // NOLINT(bugprone-command-processor)
  std::ifstream out(path + ".out");
  const std::string said((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  EXPECT_EQ(rc, 0) << said << "\n" << text;
  EXPECT_NE(text.find("process_cpu_seconds_total "), std::string::npos) << text;
  EXPECT_NE(text.find("process_open_fds "), std::string::npos) << text;
}

}  // namespace
}  // namespace petstore::metrics
