#include "service/serve.h"

#include "service/descriptor.h"

#include <csignal>
#include <memory>
#include <thread>

#include "http/server.h"
#include "log/log.h"

namespace petstore::service {

config::ServiceConfig Descriptor::configuration(const config::Env& env) const {
  config::ServiceConfig base;
  if (defaults != nullptr) {
    defaults(base);
  }
  return config::ServiceConfig::from_env(env, std::string(name), default_port, base);
}

int serve(const Descriptor& descriptor) {
  const std::string name(descriptor.name);
  try {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // every thread started below inherits this

    const auto env = config::Env::from_process();
    const auto cfg = descriptor.configuration(env);
    log::configure(name, cfg.instance, cfg.log_level, log::format_named(cfg.log_format));

    const auto service = descriptor.make(env, cfg);
    service->start();
    const auto grace = env.millis("READY_BEFORE_LISTEN_MS", std::chrono::milliseconds(5000));
    const auto listen_by = std::chrono::steady_clock::now() + grace;
    while (!service->ready() && std::chrono::steady_clock::now() < listen_by) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!service->ready()) {
      log::info("{}: read model not ready after {} ms; listening, /readyz reports the rebuild", name,
                grace.count());
    }

    http::Server server(cfg.http, service->router());
    server.bind();
    // The same API on a Unix socket as well, for an entry point on this
    // host that would rather not go through TCP.
    std::unique_ptr<http::Server> local;
    std::thread local_serving;
    if (!cfg.http_unix_socket.empty()) {
      auto options = cfg.http;
      options.unix_socket = cfg.http_unix_socket;
      local = std::make_unique<http::Server>(std::move(options), service->router());
      local->bind();
      local_serving = std::thread([&local] { local->serve(); });
    }
    const auto handlers_wait = env.millis("STOP_HANDLERS_WAIT_MS", std::chrono::milliseconds(30000));
    std::thread stopper([&server, &local, &stop_signals, &service, &name, handlers_wait] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      log::info("signal {}: stopping", sig);
      server.stop();
      if (local) {
        local->stop();
      }
      // The requests in progress finish with this replica's writers; then
      // its partitions go to the other replicas now. Waiting for serve() to
      // return instead held them while idle keep-alive connections ran out
      // (up to HTTP_KEEPALIVE_TIMEOUT_S: cpp-httplib 0.11 checks for a stop
      // only between requests), and commands for them got 503 writer_moving
      // (docs/reliability.md, "A stopping replica holds its partitions").
      const bool handled =
          server.wait_handled(handlers_wait) && (!local || local->wait_handled(handlers_wait));
      if (!handled) {
        log::warn("{}: requests still in progress after {} ms; resigning anyway (the new owners fence them)",
                  name, handlers_wait.count());
      }
      service->resign();
      // The connections left are idle or finishing a response: ended now,
      // they let serve() return, and the replica exits and can be started
      // again, without waiting HTTP_KEEPALIVE_TIMEOUT_S for them.
      const int ended = server.end_connections() + (local ? local->end_connections() : 0);
      log::info("{} resigned its partitions and ended {} open connections", name, ended);
    });
    log::info("{} listening on http://{}:{}{} (kafka {}, redis {}:{})", name, cfg.http.host, cfg.http.port,
              local ? " and on unix:" + cfg.http_unix_socket : "", cfg.kafka_brokers, cfg.redis.host,
              cfg.redis.port);
    server.serve();
    stopper.join();
    if (local_serving.joinable()) {
      local_serving.join();
    }
    // Every connection has been answered; the service (consumers, then the
    // producer, which flushes what it still holds) stops as it goes out of scope.
    log::info("{} stopped serving; flushing the event log producer", name);
    return 0;
  } catch (const std::exception& e) {
    log::critical("{}: {}", name, e.what());
    return 1;
  }
}

}  // namespace petstore::service
