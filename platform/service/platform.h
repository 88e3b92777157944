#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apikeys/admin_token.h"
#include "apikeys/key_store.h"
#include "apikeys/writer.h"
#include "config/service_config.h"
#include "es/catch_up.h"
#include "es/event_log.h"
#include "es/idempotency.h"
#include "es/key_space.h"
#include "es/owner_hints.h"
#include "es/owner_log.h"
#include "http/forwarder.h"
#include "http/health.h"
#include "http/router.h"
#include "kafka/producer.h"
#include "projection/reactor.h"
#include "projection/readiness.h"
#include "projection/runner.h"
#include "ratelimit/ban_cache.h"
#include "ratelimit/gate.h"
#include "ratelimit/limiter.h"
#include "redis/multiplexer.h"
#include "redis/pool.h"
#include "service/reaction_relay.h"

namespace petstore::service {

// The components every service is built from, wired once: Redis (a pool for
// writes, one pipelined connection for reads), the idempotent producer and the
// event log on it, the Idempotency-Key store, the health route, and the
// consumers (the projection of the service's own topics and any reactors to
// other services' events), and API keys (the keys topic's single writer,
// shared by every service's replicas) with the shared rate limiter.
// Constructing it opens no connection; start() does.
class Platform {
 public:
  Platform(const config::ServiceConfig& cfg, const es::KeySpace& keys);

  // Fails fast when a topic (or the keys topic) is missing; starts the
  // keys topic's writer.
  void start(const std::vector<std::string>& topics);
  // Runs the projection of `topics` with `applier`, and of the keys topic
  // into the shared key registry, in one consumer (positions in
  // keys.offsets()), and watches whether that read model is ready
  // (projection::Readiness). Called once per service.
  void project(const std::vector<std::string>& topics, projection::Applier& applier);
  // Runs a reactor to `topics` under consumer group "<purpose>", its
  // positions committed to Kafka (projection::Reactor). A step
  // whose aggregate another replica writes is relayed to that replica
  // (service::ReactionRelay), which takes it at POST
  // /internal/reactions/<purpose> (add_platform_routes).
  void react(const std::string& purpose, const std::vector<std::string>& topics,
             projection::Reaction& reaction);
  // Stops every consumer; the owning service calls it before the appliers and
  // reactions it handed out are destroyed.
  void stop();
  // What every service serves alike: GET /healthz (Redis, Kafka, and every
  // consumer joined its group, so events flow to the replica), GET /readyz
  // (that, and the read model is ready), the admin API for API keys, and in
  // front of all other routes the readiness gate (503 read_model_rebuilding
  // while the read model is not ready, checked again after the handler) and
  // the rate-limit gate (unless RATE_LIMIT=off).
  void add_platform_routes(http::Router& router);

  [[nodiscard]] const config::ServiceConfig& config() const { return cfg_; }
  // The settings of the single writer of `topic` (es::AggregateWriter):
  // consumer group "<service>.writers.<name>", this replica's name and URL.
  [[nodiscard]] es::OwnerLog::Settings writer_settings(const std::string& topic,
                                                       const std::string& name) const;
  // The longest an append may take, from deciding to its commit
  // (es::PartitionWriter::longest_append).
  [[nodiscard]] std::chrono::milliseconds longest_append() const;
  // Ready (GET /readyz, and before a replica starts listening) also needs
  // `writer`, the single writer of `topic` (an es::AggregateWriter), to
  // hold its share of it (settled()); /readyz shows it under "writers".
  // Reads are served meanwhile, and commands meanwhile get 503
  // writer_moving. resign() resigns it. Call before add_platform_routes.
  template <typename Writer>
  void add_writer(std::string topic, Writer& writer) {
    add_writer(
        std::move(topic), [&writer] { return writer.settled(); }, [&writer] { writer.resign(); });
  }
  // For a replica that stops, once it has answered the requests in
  // progress: its writers leave their groups, so the other replicas take
  // its partitions over now, not once its last idle connection closes (a
  // stopped listener takes no forwarded command). Reads are still served,
  // and a command that still comes is forwarded to its partition's new owner.
  void resign();
  [[nodiscard]] bool ready() const;
  redis::Pool& pool() { return pool_; }
  redis::Multiplexer& reads() { return reads_; }
  kafka::Producer& producer() { return producer_; }
  es::EventLog& log() { return log_; }
  es::CatchUp& catch_up() { return catch_up_; }
  es::IdempotencyStore& idempotency() { return idempotency_; }
  // Sends a service's own requests to a peer replica (its writers' owners).
  [[nodiscard]] const http::Forwarder& forwarder() const { return forwarder_; }

 private:
  void add_writer(std::string topic, std::function<bool()> settled, std::function<void()> resign);
  // Whether the read model's ready marker is in Redis now (one round trip;
  // throws redis::Unavailable). Readiness keeps the cached view.
  bool ready_marker_exists();

  config::ServiceConfig cfg_;
  std::string offsets_key_;
  std::string ready_key_;
  redis::Pool pool_;
  redis::Multiplexer reads_;
  kafka::Producer producer_;
  es::EventLog log_;
  es::CatchUp catch_up_;
  es::IdempotencyStore idempotency_;
  ratelimit::Limiter limiter_;
  ratelimit::BanCache bans_;
  apikeys::AdminToken admin_token_;
  ratelimit::Gate gate_;
  http::Forwarder forwarder_;
  apikeys::KeyRegistry key_registry_;
  // The keys topic's single writer: every service's replicas share one
  // group for it, so one of them writes each partition, and the others
  // forward key commands there (es::OwnerHints under "<prefix>:{apikeys}:").
  es::OwnerHints key_owners_;
  apikeys::KeyWriter key_writer_;
  apikeys::KeyStore::OwnEvents key_own_;
  apikeys::KeyStore api_keys_;
  projection::Readiness readiness_;
  projection::ByTopic project_by_topic_;
  std::vector<std::unique_ptr<projection::Runner>> runners_;
  std::vector<std::unique_ptr<ReactionRelay>> relays_;
  std::map<std::string, projection::Reaction*> relayed_;  // by purpose, for the relay's route
  std::vector<std::unique_ptr<projection::Reactor>> reactors_;
  std::vector<http::HealthCheck> writers_;
  std::vector<std::function<void()>> resigns_;  // the writers', in the order added
};

}  // namespace petstore::service
