// The services' HTTP layer with nothing behind it, for bench/run: our
// http::Server (cpp-httplib's server, configured from the same HTTP_*
// variables as every service) and Router, with one route,
// GET /pets/{petId}/profile, that answers BODY (bench/run passes the pet
// profile its static ceiling serves).
// No limiter, no Redis, no Kafka. What bench/run measures through it is the
// most a GET can reach in cpp-httplib's thread-per-connection model behind
// the entry point; the gap between it and a real GET is what the GET's own
// work (the key's check and the read, a Redis round trip) costs.
//   petstore-http-floor PORT BODY
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "config/env.h"
#include "config/service_config.h"
#include "http/response.h"
#include "http/router.h"
#include "http/server.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: petstore-http-floor PORT BODY\n", stderr);
    return 2;
  }
  try {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    const auto env = petstore::config::Env::from_process();
    auto options = petstore::config::server_options(env, 0);
    options.port = std::stoi(argv[1]);
    const std::string body = argv[2];

    petstore::http::Router router;
    router.add("GET", "/pets/{petId}/profile",
               [&body](const httplib::Request&, httplib::Response& res, const petstore::http::PathParams&) {
                 petstore::http::send_json(res, 200, body);
               });
    petstore::http::Server server(std::move(options), router);
    server.bind();
    std::thread stopper([&server, &stop_signals] {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      server.stop();
    });
    server.serve();
    stopper.join();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "petstore-http-floor: %s\n", e.what());
    return 1;
  }
}
