// One order followed through the deployment by its trace (docs/operations.md,
// "Traces and logs"): the client's W3C traceparent at the entry point, the
// orders replica's JSON log line of the request, every event of the order's
// saga on Kafka (ce_traceparent), and the reactors' log lines as each
// service handles them. With two replicas of every service, so the steps
// cross processes, and LOG_FORMAT=json, so every line is an object.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "apikeys/api_key.h"
#include "events/kafka_binding.h"
#include "json/event_fields.h"
#include "support/eventually.h"
#include "support/http_json.h"
#include "support/stack.h"
#include "support/store_deployment.h"
#include "trace/context.h"

namespace petstore::testing {
namespace {

// Every line a service's replicas logged, parsed; a line that is not a JSON
// object fails the test.
std::vector<rapidjson::Document> json_lines(StoreDeployment& store, const std::string& service,
                                            size_t replicas = 2) {
  std::vector<rapidjson::Document> out;
  for (size_t i = 0; i < replicas; ++i) {
    std::istringstream in(store.replica(service, i).log());
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] != '{') {
        continue;  // what the sanitizers or the test harness wrote
      }
      auto& d = out.emplace_back();
      d.Parse(line.c_str(), line.size());
      EXPECT_TRUE(!d.HasParseError() && d.IsObject() && d.HasMember("time") && d.HasMember("level") &&
                  d.HasMember("service") && d.HasMember("replica") && d.HasMember("msg"))
          << service << ": " << line;
    }
  }
  return out;
}

std::string member(const rapidjson::Value& d, const char* name) {
  return d.IsObject() && d.HasMember(name) && d[name].IsString() ? d[name].GetString() : "";
}

// The lines of `service` with message `msg`, in trace `trace_id`, for which `also` holds.
template <typename Also>
std::vector<std::string> lines_in_trace(StoreDeployment& store, const std::string& service,
                                        const std::string& msg, const std::string& trace_id, Also also) {
  std::vector<std::string> out;
  for (const auto& d : json_lines(store, service)) {
    if (member(d, "msg") == msg && member(d, "trace_id") == trace_id && also(d)) {
      out.push_back(member(d, "type") + member(d, "route"));
    }
  }
  return out;
}

TEST(Trace, OneOrderIsFollowedFromItsRequestThroughEveryEventAndReactorOfItsSaga) {
  StoreDeployment store(2, {{"LOG_FORMAT", "json"}});
  auto http = store.client();
  const auto setup = stocked_pets(*http, "Traced", 1, 5);
  ASSERT_TRUE(setup.stocked);
  const auto pet = setup.pets.at(0);

  const auto caller = trace::start();
  const auto placed =
      post_json(*http, "/store/orders", R"({"petId":)" + std::to_string(pet) + R"(,"quantity":2})",
                {{"traceparent", caller.traceparent()}, {"X-Request-Id", "order-under-trace"}});
  ASSERT_TRUE(placed);
  ASSERT_EQ(placed->status, 201) << placed->body;
  EXPECT_EQ(placed->get_header_value("X-Request-Id"), "order-under-trace");
  const auto order = id_of(placed);
  const auto order_text = std::to_string(order);

  // On Kafka: the order's events (its topic, keyed by order) and the
  // inventory's reservation for it (keyed by pet, naming the order).
  std::vector<events::Envelope> saga;
  ASSERT_TRUE(eventually([&] {
    saga.clear();
    for (const auto& m : read_topic(store.brokers(), store.topic("orders"))) {
      auto e = events::from_message(m);
      if (e.subject == order_text) {
        saga.push_back(std::move(e));
      }
    }
    for (const auto& m : read_topic(store.brokers(), store.topic("inventory"))) {
      auto e = events::from_message(m);
      if (e.type == "io.petstore.inventory.reserved" &&
          json::EventFields(e.data).integer("orderId") == order) {
        saga.push_back(std::move(e));
      }
    }
    return saga.size() >= 3;
  })) << saga.size()
      << " events of the order's saga";
  std::set<std::string> types;
  std::set<std::string> spans;
  for (const auto& e : saga) {
    types.insert(e.type);
    const auto t = trace::parse(e.traceparent, e.tracestate);
    ASSERT_TRUE(t) << e.type << " carries no valid ce_traceparent: '" << e.traceparent << "'";
    EXPECT_EQ(t->trace_id, caller.trace_id) << e.type;
    EXPECT_NE(t->span_id, caller.span_id) << e.type << ": the caller's span is the parent, not the event's";
    spans.insert(t->span_id);
  }
  EXPECT_EQ(types, (std::set<std::string>{"io.petstore.order.placed", "io.petstore.inventory.reserved",
                                          "io.petstore.order.reserved"}));
  EXPECT_EQ(spans.size(), 3U) << "the request, the inventory's step and the orders' step: a span each";

  // In the logs: the request's line at the orders replica that served it
  // (with the key's id, never the key), then each reactor's line.
  const auto key_id = apikeys::identify(store.api_key())->id;
  ASSERT_TRUE(eventually([&] {
    return !lines_in_trace(store, "orders", "request", caller.trace_id, [&](const rapidjson::Value& d) {
              return member(d, "route") == "/store/orders" && member(d, "method") == "POST" &&
                     member(d, "request_id") == "order-under-trace" && member(d, "api_key_id") == key_id &&
                     d.HasMember("status") && d["status"].IsInt() && d["status"].GetInt() == 201 &&
                     d.HasMember("latency_ms") && d["latency_ms"].IsNumber();
            }).empty();
  })) << "no request line of the order's trace in the orders replicas' logs";
  const auto handled = [](const char* type) {
    return [type](const rapidjson::Value& d) { return member(d, "type") == type; };
  };
  EXPECT_TRUE(eventually([&] {
    return !lines_in_trace(store, "inventory", "reactor handled an event", caller.trace_id,
                           handled("io.petstore.order.placed"))
                .empty();
  })) << "the inventory's reactor logged no line of order.placed in the order's trace";
  EXPECT_TRUE(eventually([&] {
    return !lines_in_trace(store, "orders", "reactor handled an event", caller.trace_id,
                           handled("io.petstore.inventory.reserved"))
                .empty();
  })) << "the orders' reactor logged no line of inventory.reserved in the order's trace";
  for (const auto& service : StoreDeployment::services()) {
    EXPECT_FALSE(json_lines(store, service).empty()) << service;
  }
  const auto* key = store.api_key().c_str();
  for (const auto& service : StoreDeployment::services()) {
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(store.replica(service, i).log().find(key), std::string::npos)
          << service << i << " logged the key";
    }
  }
}

TEST(Trace, ARequestWithoutATraceOrAnIdGetsNewOnes) {
  StoreDeployment store(1, {{"LOG_FORMAT", "json"}});
  auto http = store.client();
  const auto first = http->Get("/pets?limit=1");
  const auto second = http->Get(
      "/pets?limit=1", {{"traceparent", "00-not-a-trace-01"}, {"X-Request-Id", std::string(200, 'x')}});
  ASSERT_TRUE(first && second);
  const auto a = first->get_header_value("X-Request-Id");
  const auto b = second->get_header_value("X-Request-Id");
  EXPECT_FALSE(a.empty());
  EXPECT_FALSE(b.empty());
  EXPECT_NE(a, b);
  EXPECT_NE(b, std::string(200, 'x')) << "an id longer than 128 characters is replaced";
  // Each request line names a trace of its own.
  std::set<std::string> traces;
  ASSERT_TRUE(eventually([&] {
    traces.clear();
    for (const auto& d : json_lines(store, "pets", 1)) {
      if (member(d, "msg") == "request" && member(d, "route") == "/pets" &&
          (member(d, "request_id") == a || member(d, "request_id") == b)) {
        EXPECT_EQ(member(d, "trace_id").size(), 32U);
        traces.insert(member(d, "trace_id"));
      }
    }
    return traces.size() == 2;
  }));
}

}  // namespace
}  // namespace petstore::testing
