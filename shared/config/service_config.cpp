#include "config/service_config.h"

#include <unistd.h>

#include <array>

namespace petstore::config {
http::ServerOptions server_options(const Env& env, int default_port) {
  http::ServerOptions o;
  o.host = env.str("HTTP_HOST", o.host);
  o.port = static_cast<int>(env.integer("HTTP_PORT", default_port, 1, 65535));
  o.threads = static_cast<size_t>(env.integer("HTTP_THREADS", static_cast<std::int64_t>(o.threads), 2, 4096));
  o.max_queued = static_cast<size_t>(
      env.integer("HTTP_MAX_QUEUED", static_cast<std::int64_t>(o.max_queued), 1, 1'000'000));
  o.limits.max_body_bytes = static_cast<size_t>(
      env.integer("HTTP_MAX_BODY_BYTES", static_cast<std::int64_t>(o.limits.max_body_bytes), 256,
                  std::int64_t{16} * 1024 * 1024));
  o.keep_alive_max_requests = static_cast<size_t>(env.integer(
      "HTTP_KEEPALIVE_MAX_REQUESTS", static_cast<std::int64_t>(o.keep_alive_max_requests), 1, 1'000'000));
  o.keep_alive_timeout_s =
      static_cast<int>(env.integer("HTTP_KEEPALIVE_TIMEOUT_S", o.keep_alive_timeout_s, 1, 3600));
  o.read_timeout_s = static_cast<int>(env.integer("HTTP_READ_TIMEOUT_S", o.read_timeout_s, 1, 3600));
  o.write_timeout_s = static_cast<int>(env.integer("HTTP_WRITE_TIMEOUT_S", o.write_timeout_s, 1, 3600));
  o.listen_backlog = static_cast<int>(env.integer("HTTP_LISTEN_BACKLOG", o.listen_backlog, 16, 65535));
  return o;
}

ServiceConfig ServiceConfig::from_env(const Env& env, const std::string& service, int default_port) {
  static const ServiceConfig kDefaults;
  return from_env(env, service, default_port, kDefaults);
}

ServiceConfig ServiceConfig::from_env(const Env& env, const std::string& service, int default_port,
                                      const ServiceConfig& defaults) {
  ServiceConfig c = defaults;
  c.service = service;
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  c.instance = env.str("INSTANCE_ID", std::string(host.data()) + "-" + std::to_string(getpid()));
  c.prefix = env.str("PETSTORE_PREFIX", "petstore");
  c.log_level = env.str("LOG_LEVEL", "info");
  c.log_format = env.str("LOG_FORMAT", "text");
  c.http = server_options(env, default_port);
  c.http_unix_socket = env.str("HTTP_UNIX_SOCKET", "");
  c.advertised_url = env.str("ADVERTISED_URL",
                             "http://" + (c.http.host == "0.0.0.0" ? std::string(host.data()) : c.http.host) +
                                 ":" + std::to_string(c.http.port));
  try {
    // Loopback by default: the entry point of a local run is nginx on this host.
    c.trusted_proxies = http::TrustedProxies::parse(env.str("TRUSTED_PROXIES", "127.0.0.0/8,::1/128"));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  c.redis.host = env.str("REDIS_HOST", "127.0.0.1");
  c.redis.port = static_cast<int>(env.integer("REDIS_PORT", 6379, 1, 65535));
  c.redis.unix_socket = env.str("REDIS_SOCKET", "");
  c.redis.command_timeout = env.millis("REDIS_TIMEOUT_MS", std::chrono::milliseconds(1000));
  c.redis.connect_timeout = c.redis.command_timeout;
  c.redis_pool_idle = static_cast<size_t>(env.integer("REDIS_POOL_IDLE", 64, 1, 4096));
  c.redis_lanes =
      static_cast<size_t>(env.integer("REDIS_LANES", static_cast<std::int64_t>(c.redis_lanes), 1, 64));
  c.kafka_brokers = env.str("KAFKA_BROKERS", "127.0.0.1:9092");
  c.apikeys_topic = env.str("KAFKA_TOPIC_APIKEYS", c.apikeys_topic);
  c.kafka_linger_ms = static_cast<int>(env.integer("KAFKA_LINGER_MS", c.kafka_linger_ms, 0, 1000));
  c.kafka_delivery_timeout_ms =
      static_cast<int>(env.integer("KAFKA_DELIVERY_TIMEOUT_MS", c.kafka_delivery_timeout_ms, 100, 300'000));
  c.kafka_fetch_wait_max_ms =
      static_cast<int>(env.integer("KAFKA_FETCH_WAIT_MAX_MS", c.kafka_fetch_wait_max_ms, 1, 10'000));
  c.kafka_projection_fetch_wait_ms = static_cast<int>(
      env.integer("KAFKA_PROJECTION_FETCH_WAIT_MS", c.kafka_projection_fetch_wait_ms, 1, 10'000));
  c.command_lease = env.millis("COMMAND_LEASE_MS", c.command_lease);
  c.catch_up_timeout = env.millis("CATCH_UP_TIMEOUT_MS", c.catch_up_timeout);
  auto& rl = c.rate_limit;
  rl.enabled = env.flag("RATE_LIMIT", rl.enabled);
  // No default: a replica started without a token serves no admin API
  // (scripts/up and the tests set one of their own).
  rl.admin_token = env.find("PETSTORE_ADMIN_TOKEN");
  if (rl.admin_token && rl.admin_token->empty()) {
    rl.admin_token.reset();
  }
  if (rl.admin_token && rl.admin_token->size() < 16) {
    throw ConfigError("PETSTORE_ADMIN_TOKEN must be at least 16 characters");
  }
  rl.timeout = env.millis("RATE_LIMIT_TIMEOUT_MS", rl.timeout);
  rl.ban_after = static_cast<int>(env.integer("RATE_LIMIT_BAN_AFTER", rl.ban_after, 1, 1'000'000));
  rl.ban_window_s = static_cast<int>(env.integer("RATE_LIMIT_BAN_WINDOW_S", rl.ban_window_s, 1, 86'400));
  rl.ban_first_s = static_cast<int>(env.integer("RATE_LIMIT_BAN_FIRST_S", rl.ban_first_s, 1, 86'400));
  rl.ban_max_s = static_cast<int>(
      env.integer("RATE_LIMIT_BAN_MAX_S", rl.ban_max_s, rl.ban_first_s, std::int64_t{30} * 86'400));
  // A lease shorter than the longest append (the delivery timeout and the
  // report's lateness, kafka::kDeliveryReportLateness) would let a live
  // holder lose its lock while its event is still on the way to the log;
  // as long again leaves room to lock, catch up and decide first.
  const auto longest_append = c.kafka_delivery_timeout_ms + kafka::kDeliveryReportLateness.count();
  if (c.command_lease.count() < 2LL * longest_append) {
    throw ConfigError("COMMAND_LEASE_MS must be at least twice KAFKA_DELIVERY_TIMEOUT_MS + " +
                      std::to_string(kafka::kDeliveryReportLateness.count()) + " (" +
                      std::to_string(2LL * longest_append) + ")");
  }
  return c;
}

kafka::ProducerSettings ServiceConfig::producer() const {
  kafka::ProducerSettings p;
  p.bootstrap_servers = kafka_brokers;
  p.client_id = service + "-" + instance;
  p.linger_ms = kafka_linger_ms;
  p.delivery_timeout_ms = kafka_delivery_timeout_ms;
  return p;
}

}  // namespace petstore::config
