#include "service/platform.h"

#include <algorithm>

#include "apikeys/admin_routes.h"
#include "error/codes.h"
#include "es/errc.h"
#include "es/partition_writer.h"
#include "http/api_error.h"
#include "http/health.h"
#include "http/request_metrics.h"
#include "http/response.h"

namespace petstore::service {
namespace {

// What a caller who fails the admin token check may spend per address:
// enough for an operator's typos, far too little to guess a token, and the
// usual bans for whoever keeps trying.
constexpr ratelimit::Limits kAdminFailures{10, 100, 60, 86'400};

ApiError rebuilding() {
  return http::error_from(es::Error(es::Errc::NotReady, "the read model is being rebuilt"));
}

// The probes and the metrics. Not the admin API: the key registry is part
// of the read model (a projection of the keys topic), and is rebuilt with it.
bool exempt_from_readiness(const std::string& path) {
  return path == "/healthz" || path == "/readyz" || path == "/metrics";
}

// A read's Redis commands on this worker thread, corked from the first
// before-hook to the after-hook, with the ready marker's EXISTS as the
// trailer of each batch (redis::Multiplexer::Cork). One request at a time
// per worker thread, so one slot per thread.
thread_local std::optional<redis::Multiplexer::Cork> read_cork;

}  // namespace

Platform::Platform(const config::ServiceConfig& cfg, const es::KeySpace& keys)
    : cfg_(cfg),
      offsets_key_(keys.offsets()),
      ready_key_(keys.ready_marker()),
      pool_(cfg.redis, cfg.redis_pool_idle),
      reads_(cfg.redis, cfg.redis_lanes),
      producer_(cfg.producer()),
      log_(producer_, "/petstore/" + cfg.service),
      catch_up_(producer_, cfg.kafka_brokers, pool_, offsets_key_, cfg.catch_up_timeout),
      idempotency_(pool_, cfg.command_lease, std::chrono::hours(24)),
      // The limiter's checks share the reads' pipelined connection, so a
      // GET's check and read reach Redis in one batch (Gate, Cork). Each
      // check still waits at most RATE_LIMIT_TIMEOUT_MS (Limiter's
      // deadline): a slow or stopped Redis is answered with 503 within it,
      // whatever the connection's own timeouts.
      limiter_(reads_, cfg.prefix,
               ratelimit::BanPolicy{cfg.rate_limit.ban_after, cfg.rate_limit.ban_window_s,
                                    cfg.rate_limit.ban_first_s, cfg.rate_limit.ban_max_s, 86'400},
               cfg.rate_limit.timeout),
      admin_token_(cfg.rate_limit.admin_token),
      gate_(limiter_, bans_, apikeys::fixed_limits(apikeys::Plan::Free).value(), kAdminFailures, admin_token_,
            cfg.trusted_proxies, [this] { return ready_marker_exists(); }),
      // A forward waits for the owner to begin (start_within), to hold its
      // partition (at most OwnerLog's settle wait) and to append: given up
      // on sooner, its 503 could be untrue (http::Forwarder::Settings).
      forwarder_([&] {
        http::Forwarder::Settings s;
        s.read_timeout = s.start_within + es::OwnerLog::Settings{}.settle_wait + longest_append();
        s.self = cfg.advertised_url;
        return s;
      }()),
      key_registry_(apikeys::KeyModel(keys, cfg.prefix)),
      key_owners_(pool_, es::KeySpace(cfg.prefix, "apikeys").owners(cfg.apikeys_topic)),
      key_writer_(
          producer_,
          [&] {
            auto s = writer_settings(cfg.apikeys_topic, "apikeys");
            s.group = cfg.prefix + ".platform.writers.apikeys";  // every service's
            return s;
          }(),
          &key_owners_),
      key_own_(pool_, catch_up_, key_registry_),
      api_keys_(key_writer_, key_own_, key_registry_, pool_, reads_, cfg.prefix, cfg.apikeys_topic),
      readiness_(producer_, pool_, keys, cfg.service) {
  add_writer(cfg.apikeys_topic, key_writer_);
}

void Platform::start(const std::vector<std::string>& topics) {
  for (const auto& t : topics) {
    producer_.partitions(t);
  }
  producer_.partitions(cfg_.apikeys_topic);
  key_writer_.start();
}

void Platform::project(const std::vector<std::string>& own_topics, projection::Applier& applier) {
  auto topics = own_topics;
  for (const auto& t : own_topics) {
    project_by_topic_.add(t, applier);
  }
  topics.push_back(cfg_.apikeys_topic);
  project_by_topic_.add(cfg_.apikeys_topic, key_registry_);
  auto runner = std::make_unique<projection::Runner>(
      kafka::ConsumerSettings{cfg_.kafka_brokers, cfg_.consumer_group("projection"),
                              cfg_.service + "-projection-" + cfg_.instance, topics,
                              cfg_.kafka_projection_fetch_wait_ms},
      pool_, offsets_key_, ready_key_, project_by_topic_);
  runner->start();
  readiness_.start(topics, [r = runner.get()] { r->verify_positions(); });
  runners_.push_back(std::move(runner));
}

void Platform::react(const std::string& purpose, const std::vector<std::string>& topics,
                     projection::Reaction& reaction) {
  auto reactor = std::make_unique<projection::Reactor>(
      kafka::ConsumerSettings{cfg_.kafka_brokers, cfg_.consumer_group(purpose),
                              cfg_.service + "-" + purpose + "-" + cfg_.instance, topics,
                              cfg_.kafka_fetch_wait_max_ms},
      *relays_.emplace_back(std::make_unique<ReactionRelay>(purpose, reaction, forwarder_)));
  relayed_[purpose] = &reaction;
  reactor->start();
  reactors_.push_back(std::move(reactor));
}

es::OwnerLog::Settings Platform::writer_settings(const std::string& topic, const std::string& name) const {
  es::OwnerLog::Settings s;
  s.brokers = cfg_.kafka_brokers;
  s.group = cfg_.consumer_group("writers." + name);  // one per topic: the replicas share its partitions out
  s.topic = topic;
  s.owner = cfg_.instance;
  s.source = "/petstore/" + cfg_.service;
  s.url = cfg_.advertised_url;
  s.linger_ms = cfg_.kafka_linger_ms;
  s.delivery_timeout_ms = cfg_.kafka_delivery_timeout_ms;
  return s;
}

std::chrono::milliseconds Platform::longest_append() const {
  return es::PartitionWriter::longest_append(cfg_.kafka_delivery_timeout_ms);
}

void Platform::stop() {
  readiness_.stop();
  reactors_.clear();
  runners_.clear();
}

void Platform::add_writer(std::string topic, std::function<bool()> settled, std::function<void()> resign) {
  writers_.push_back({std::move(topic), std::move(settled)});
  resigns_.push_back(std::move(resign));
}

void Platform::resign() {
  for (const auto& resign : resigns_) {
    resign();
  }
  // The projection and the reactors go on until the replica exits: they
  // need no listener (a reaction step for an aggregate another replica
  // writes is relayed there), and moving them now would only move the gap
  // of their rebalance forward.
}

bool Platform::ready() const {
  return readiness_.ready() && std::ranges::all_of(writers_, [](const auto& w) { return w.healthy(); });
}

bool Platform::ready_marker_exists() {
  return redis::as_integer(redis::expect_ok(reads_.command({"EXISTS", ready_key_}))) == 1;
}

void Platform::add_platform_routes(http::Router& router) {
  apikeys::add_admin_routes(router, api_keys_, admin_token_);
  add_reaction_route(router, relayed_, cfg_.trusted_proxies);
  // First of all: a forwarded request that arrives after its forwarder gave
  // up on it (this replica was paused) is not run. The forwarder answered
  // its client 503 already, so writing now would make that answer untrue.
  router.before([](const httplib::Request& req, httplib::Response& res, bool) {
    if (!http::Forwarder::expired(req, std::chrono::system_clock::now())) {
      return http::Admission::decided(false);
    }
    http::send_error(res,
                     ApiError(503, codes::kWriterMoving,
                              "forwarded too late: the forwarding replica gave up on it; nothing was written")
                         .retry_after(1));
    return http::Admission::decided(true);
  });
  // First, so that nothing is answered from a read model that is not a
  // whole fold of the log; only the probes stay open. Before the rate-limit
  // gate too: while the key registry is rebuilt, a client hears 503 and
  // Retry-After, never 401 for a key the registry does not hold yet.
  router.before([this](const httplib::Request& req, httplib::Response& res, bool) {
    read_cork.reset();  // a request before this one that never reached the after-hook
    if (exempt_from_readiness(req.path)) {
      return http::Admission::decided(false);
    }
    if (readiness_.ready()) {
      if (http::safe_method(req.method)) {
        read_cork.emplace(reads_, redis::Args{"EXISTS", ready_key_});
      }
      return http::Admission::decided(false);
    }
    http::send_error(res, rebuilding());
    return http::Admission::decided(true);
  });
  // And after the handler: Readiness notices a wipe within its interval, and
  // a wipe can land while a handler reads. If the marker is gone now, what
  // the handler answered may rest on a partial read model, so it becomes 503,
  // except a write's answer that rests on an event it appended: a 2xx, or a
  // refusal that names what it wrote (an order the saga refused is in the
  // log, and its 409 carries its Location). Those are true, and a 503 would
  // say nothing was written (a write decides on its owner's fold of the
  // log, not on the read model).
  //
  // A read's check costs no round trip of its own: the EXISTS went to Redis
  // behind the handler's last read, in the same batch, and ran after it.
  router.after([this](const httplib::Request& req, httplib::Response& res) {
    auto trailer = read_cork ? read_cork->trailer() : std::nullopt;
    read_cork.reset();
    if (exempt_from_readiness(req.path) || res.status == 503 ||
        (!http::safe_method(req.method) &&
         ((res.status >= 200 && res.status < 300) || res.has_header("Location")))) {
      return;
    }
    try {
      const bool ready =
          trailer ? redis::as_integer(redis::expect_ok(trailer->get())) == 1 : ready_marker_exists();
      if (ready) {
        return;
      }
    } catch (const std::exception&) {
      return;  // Redis is out: the handler met that too, and said so
    }
    // The rate-limit headers stay: the request was counted.
    httplib::Headers kept;
    for (const auto& [name, value] : res.headers) {
      if (name.starts_with("X-RateLimit") || name.starts_with("RateLimit")) {
        kept.emplace(name, value);
      }
    }
    res.headers = std::move(kept);
    http::send_error(res, rebuilding());
  });
  if (cfg_.rate_limit.enabled) {
    router.before([this](const httplib::Request& req, httplib::Response& res, bool may_defer) {
      if (http::Forwarder::forwarded_by_trusted(req, cfg_.trusted_proxies)) {
        // Charged by the replica that forwarded it, which adds the headers.
        return http::Admission::decided(false);
      }
      return gate_.start(req, res, may_defer);
    });
  }
  // A command for a partition another replica owns goes on to that owner
  // (es::Errc::NotOwner with the owner's URL), once; without a reachable
  // owner it is answered here: 503 writer_moving, Retry-After.
  router.rescue([this](const httplib::Request& req, httplib::Response& res,
                       const std::exception_ptr& failure) { return forwarder_.rescue(req, res, failure); });
  http::add_metrics_route(router);
  http::add_health_routes(
      router,
      {{"redis",
        [this] {
          return pool_.run([](redis::Connection& c) { return !redis::is_error(*c.command({"PING"})); });
        }},
       {"kafka", [this] { return producer_.reachable(1000); }},
       {"consumers",
        [this] {
          return std::ranges::all_of(runners_, [](const auto& r) { return r->joined(); }) &&
                 std::ranges::all_of(reactors_, [](const auto& r) { return r->joined(); });
        }}},
      {[this] { return readiness_.ready(); }, [this] { return readiness_.describe(); }, writers_});
}

}  // namespace petstore::service
