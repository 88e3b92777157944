#include "service/serve.h"

#include <csignal>
#include <thread>

#include <spdlog/spdlog.h>

#include "http/server.h"
#include "log/logging.h"

namespace petstore::service {

int serve(const std::string& name, int default_port, const Factory& make) {
  try {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // every thread started below inherits this

    const auto env = config::Env::from_process();
    const auto cfg = config::ServiceConfig::from_env(env, name, default_port);
    log::configure(name, cfg.log_level);

    const auto service = make(env, cfg);
    service->start();
    const auto grace = env.millis("READY_BEFORE_LISTEN_MS", std::chrono::milliseconds(5000));
    const auto listen_by = std::chrono::steady_clock::now() + grace;
    while (!service->ready() && std::chrono::steady_clock::now() < listen_by) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!service->ready()) {
      spdlog::info("{}: read model not ready after {} ms; listening, /readyz reports the rebuild", name,
                   grace.count());
    }

    http::Server server(cfg.http, service->router());
    server.bind();
    std::thread stopper([&server, &stop_signals] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      spdlog::info("signal {}: stopping", sig);
      server.stop();
    });
    spdlog::info("{} listening on http://{}:{} (kafka {}, redis {}:{})", name, cfg.http.host, cfg.http.port,
                 cfg.kafka_brokers, cfg.redis.host, cfg.redis.port);
    server.serve();
    stopper.join();
    // Every connection has been answered; the service (consumers, then the
    // producer, which flushes what it still holds) stops as it goes out of scope.
    spdlog::info("{} stopped serving; flushing the event log producer", name);
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("{}: {}", name, e.what());
    return 1;
  }
}

}  // namespace petstore::service
