#include "control_api.h"

#include <string>

#include "http/api_error.h"
#include "json/reader.h"

namespace petstore::tools {
namespace {

using Action = std::function<void(const httplib::Request&)>;

// Runs one control action and answers 204, or 400 with the reason.
httplib::Server::Handler respond(Action action) {
  return [action = std::move(action)](const httplib::Request& req, httplib::Response& res) {
    try {
      action(req);
      res.status = 204;
    } catch (const json::Invalid& e) {
      res.status = 400;
      res.set_content(ApiError(400, e.code(), e.what()).to_json(), "application/json");
    } catch (const std::exception& e) {
      res.status = 400;
      res.set_content(ApiError(400, "control_failed", e.what()).to_json(), "application/json");
    }
  };
}

std::int32_t broker_id(const httplib::Request& req) {
  return static_cast<std::int32_t>(std::stoi(req.matches[1].str()));
}

}  // namespace

void register_control_api(httplib::Server& server, MockCluster& cluster, const ControlHooks& hooks) {
  server.Get("/bootstrap", [&cluster](const httplib::Request&, httplib::Response& res) {
    res.set_content(cluster.bootstrap(), "text/plain");
  });
  server.Get("/healthz", [hooks](const httplib::Request&, httplib::Response& res) {
    const auto problem = hooks.problem();
    res.status = problem.empty() ? 200 : 503;
    res.set_content(problem.empty() ? "ok" : problem, "text/plain");
  });
  server.Post("/topics", respond([hooks](const httplib::Request& req) {
                const auto doc = json::parse_object(req.body);
                json::ObjectReader in(doc);
                const auto name = in.required_string("name");
                const auto partitions = in.required_int64("partitions");
                if (partitions < 1 || partitions > 10000) {
                  throw std::invalid_argument("partitions must be 1 to 10000");
                }
                in.reject_unknown();
                hooks.create_topic(name, static_cast<int>(partitions));
              }));
  server.Post(R"(/brokers/(\d+)/down)",
              respond([&cluster](const httplib::Request& req) { cluster.broker_down(broker_id(req)); }));
  server.Post(R"(/brokers/(\d+)/up)",
              respond([&cluster](const httplib::Request& req) { cluster.broker_up(broker_id(req)); }));
  server.Post(R"(/brokers/(\d+)/rtt)", respond([&cluster](const httplib::Request& req) {
                const auto doc = json::parse_object(req.body);
                json::ObjectReader in(doc);
                cluster.broker_rtt(broker_id(req), static_cast<int>(in.required_int64("ms")));
              }));
  server.Post("/errors", respond([&cluster](const httplib::Request& req) {
                const auto doc = json::parse_object(req.body);
                json::ObjectReader in(doc);
                const auto api_key = static_cast<std::int16_t>(in.required_int64("apiKey"));
                std::vector<rd_kafka_resp_err_t> errors;
                const auto it = doc.FindMember("errors");
                if (it == doc.MemberEnd() || !it->value.IsArray()) {
                  throw std::invalid_argument("errors must be an array of Kafka error codes");
                }
                for (const auto& e : it->value.GetArray()) {
                  errors.push_back(static_cast<rd_kafka_resp_err_t>(e.GetInt()));
                }
                cluster.push_request_errors(api_key, errors);
              }));
  server.Delete(R"(/errors/(\d+))", respond([&cluster](const httplib::Request& req) {
                  cluster.clear_request_errors(static_cast<std::int16_t>(std::stoi(req.matches[1].str())));
                }));
  server.Post("/leader", respond([&cluster](const httplib::Request& req) {
                const auto doc = json::parse_object(req.body);
                json::ObjectReader in(doc);
                const auto topic = in.required_string("topic");
                const auto partition = static_cast<std::int32_t>(in.required_int64("partition"));
                const auto broker = static_cast<std::int32_t>(in.required_int64("broker"));
                cluster.set_leader(topic, partition, broker);
              }));
}

}  // namespace petstore::tools
