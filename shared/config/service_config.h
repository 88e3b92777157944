#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "config/env.h"
#include "http/client_address.h"
#include "http/server.h"
#include "kafka/producer.h"
#include "redis/connection.h"

namespace petstore::config {

// API keys and the rate limiter (the README's table has the variables).
struct RateLimitConfig {
  bool enabled = true;                     // RATE_LIMIT
  std::optional<std::string> admin_token;  // PETSTORE_ADMIN_TOKEN; unset: the admin API is disabled
  std::chrono::milliseconds timeout{100};
  int ban_after = 10;     // denied requests ...
  int ban_window_s = 60;  // ... within this many seconds start a ban
  int ban_first_s = 60;   // doubled for each repeat offence ...
  int ban_max_s = 3600;   // ... up to this
};

// Settings every service reads from the environment (the README's
// configuration table lists each variable with its default).
// The HTTP server's settings from HTTP_* (docs/http-server.md), the port
// from HTTP_PORT or `default_port`.
http::ServerOptions server_options(const Env& env, int default_port);

struct ServiceConfig {
  std::string service;   // pets, orders, inventory
  std::string instance;  // this replica, for logs and Kafka client.id
  std::string prefix;    // PETSTORE_PREFIX: Redis keys and consumer groups
  std::string log_level;
  std::string log_format;  // LOG_FORMAT: text or json (log::Format)
  http::ServerOptions http;
  // HTTP_UNIX_SOCKET: a Unix-domain socket to serve the same API on, beside
  // host:port, for an entry point on this host (scripts/up); empty: none.
  std::string http_unix_socket;
  // TRUSTED_PROXIES: peers whose X-Forwarded-For names the client.
  http::TrustedProxies trusted_proxies;
  // ADVERTISED_URL: where the other replicas reach this one, to forward a
  // command to the owner of its partition (es::OwnerHints). By default
  // http://<HTTP_HOST or, for 0.0.0.0, the host name>:<HTTP_PORT>.
  std::string advertised_url;
  redis::Endpoint redis;
  size_t redis_pool_idle = 64;
  // Pipelined connections for reads and for the rate limiter (each). One
  // is fastest when Redis is on the same host; more keep several batches in
  // flight, which pays when the round trip to Redis is long.
  size_t redis_lanes = 1;
  std::string kafka_brokers;
  // KAFKA_TOPIC_APIKEYS: key management's events, which every service
  // writes (its admin API) and projects (the shared key registry).
  std::string apikeys_topic = "petstore.apikeys.v1";
  int kafka_linger_ms = 2;
  int kafka_delivery_timeout_ms = 5000;
  // How long a fetch may wait at the broker for data (fetch.wait.max.ms):
  // Kafka answers a fetch as soon as a record arrives, so the wait costs no
  // latency, and a longer one means fewer empty fetches from an idle
  // consumer. The same for the projections' consumers (Platform::project).
  int kafka_fetch_wait_max_ms = 100;
  int kafka_projection_fetch_wait_ms = 100;
  // An Idempotency-Key record in progress: at least twice the longest
  // append (delivery timeout + report lateness).
  std::chrono::milliseconds command_lease{12'500};
  std::chrono::milliseconds catch_up_timeout{5'000};
  RateLimitConfig rate_limit;

  static ServiceConfig from_env(const Env& env, const std::string& service, int default_port);
  // The environment's settings over `defaults` (a service's own defaults,
  // where they differ from these).
  static ServiceConfig from_env(const Env& env, const std::string& service, int default_port,
                                const ServiceConfig& defaults);

  [[nodiscard]] kafka::ProducerSettings producer() const;
  [[nodiscard]] std::string consumer_group(const std::string& purpose) const {
    return prefix + "." + service + "." + purpose;
  }
};

}  // namespace petstore::config
