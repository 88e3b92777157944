// The pets service: reads its configuration, starts its components and
// serves HTTP until SIGINT/SIGTERM.
#include <csignal>
#include <thread>

#include <spdlog/spdlog.h>

#include "config/service_config.h"
#include "http/server.h"
#include "log/logging.h"
#include "service.h"

int main() {
  using namespace petstore;
  try {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // every thread started below inherits this

    const auto env = config::Env::from_process();
    const auto cfg = config::ServiceConfig::from_env(env, "pets", 8081);
    log::configure("pets", cfg.log_level);

    pets::PetsService service(cfg, pets::topics_from(env));
    service.start();

    const auto server = http::make_server(cfg.http);
    service.router().install(*server);
    if (!server->bind_to_port(cfg.http.host, cfg.http.port)) {
      throw std::runtime_error("cannot listen on " + cfg.http.host + ":" + std::to_string(cfg.http.port));
    }
    std::thread stopper([&server, &stop_signals] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      spdlog::info("signal {}: stopping", sig);
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
