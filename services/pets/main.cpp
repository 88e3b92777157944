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

    http::Server server(cfg.http);
    service.router().install(server.raw());
    server.bind();
    std::thread stopper([&server, &stop_signals] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      spdlog::info("signal {}: stopping", sig);
      server.stop();
    });
    spdlog::info("pets listening on http://{}:{} (kafka {}, redis {}:{})", cfg.http.host, cfg.http.port,
                 cfg.kafka_brokers, cfg.redis.host, cfg.redis.port);
    server.serve();
    stopper.join();
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("pets: {}", e.what());
    return 1;
  }
}
