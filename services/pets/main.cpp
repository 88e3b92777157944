// The pets service: wires configuration, Redis, Kafka, the projection, the
// command side and the HTTP routes, then serves until SIGINT/SIGTERM.
#include <csignal>
#include <thread>

#include <spdlog/spdlog.h>

#include "app/category_commands.h"
#include "app/pet_commands.h"
#include "app/write_path.h"
#include "config/service_config.h"
#include "es/aggregate_lock.h"
#include "es/catch_up.h"
#include "es/event_log.h"
#include "es/idempotency.h"
#include "http/health.h"
#include "http/routes.h"
#include "http/server.h"
#include "ids/id_generator.h"
#include "ids/worker_lease.h"
#include "kafka/producer.h"
#include "log/logging.h"
#include "projection/pets_projection.h"
#include "projection/read_model.h"
#include "projection/runner.h"
#include "redis/pool.h"

using namespace petstore;

int main() {
  try {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // every thread below inherits this

    const auto env = config::Env::from_process();
    const auto cfg = config::ServiceConfig::from_env(env, "pets", 8081);
    log::configure("pets", cfg.log_level);
    const pets::Topics topics{env.str("KAFKA_TOPIC_PETS", "petstore.pets.v1"),
                              env.str("KAFKA_TOPIC_CATEGORIES", "petstore.categories.v1")};
    const pets::PetKeys keys(cfg.prefix);

    redis::Pool pool(cfg.redis, cfg.redis_pool_idle);
    kafka::Producer producer(cfg.producer());
    producer.partitions(topics.pets);  // fail fast if the topics are missing
    producer.partitions(topics.categories);

    ids::WorkerLease lease(pool, cfg.prefix, std::chrono::seconds(30));
    ids::IdGenerator ids(0, ids::system_unix_ms);
    ids.set_worker(lease.start([&ids](std::int64_t worker) { ids.set_worker(worker); }));

    pets::PetsProjection projection(keys);
    projection::Runner runner({cfg.kafka_brokers, cfg.consumer_group("projection"),
                               "pets-projection-" + cfg.instance, {topics.pets, topics.categories},
                               cfg.kafka_fetch_wait_max_ms},
                              pool, keys.offsets(), projection);
    runner.start();

    es::EventLog log(producer, "/petstore/pets");
    es::AggregateLock locks(pool, cfg.command_lease, cfg.lock_wait);
    es::CatchUp catch_up(producer, pool, keys.offsets(), cfg.catch_up_timeout);
    es::IdempotencyStore idempotency(pool, cfg.command_lease, std::chrono::hours(24));
    pets::ReadModel read(pool, keys);
    pets::WritePath write(log, locks, catch_up, pool, read, projection, keys, topics, cfg.command_lease);
    pets::PetCommands pet_commands(write);
    pets::CategoryCommands category_commands(write);

    http::Router router;
    const pets::RouteDeps deps{pet_commands, category_commands, read, idempotency, ids, keys};
    pets::add_pet_routes(router, deps);
    pets::add_category_routes(router, deps);
    http::add_health_route(router, {{"redis", [&pool] {
                                       return pool.run([](redis::Connection& c) {
                                         return !redis::is_error(*c.command({"PING"}));
                                       });
                                     }},
                                    {"kafka", [&producer] { return producer.reachable(1000); }}});

    const auto server = http::make_server(cfg.http);
    router.install(*server);
    if (!server->bind_to_port(cfg.http.host, cfg.http.port)) {
      throw std::runtime_error("cannot listen on " + cfg.http.host + ":" + std::to_string(cfg.http.port));
    }
    std::thread stopper([&server, &stop_signals] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      spdlog::info("signal {}: draining and stopping", sig);
      server->stop();
    });
    spdlog::info("pets listening on http://{}:{} (kafka {}, redis {}:{})", cfg.http.host, cfg.http.port,
                 cfg.kafka_brokers, cfg.redis.host, cfg.redis.port);
    server->listen_after_bind();
    stopper.join();
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("pets: {}", e.what());
    return 1;
  }
}
