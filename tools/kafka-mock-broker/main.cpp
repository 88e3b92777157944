// Hosts librdkafka's mock Kafka cluster on loopback for local runs and tests:
// creates the project's topics, restores the log kept on disk (with
// MOCK_DATA_DIR), writes the bootstrap list to a file, and serves a small
// HTTP control API for fault injection until SIGINT/SIGTERM, when it
// journals what is left and stops.
#include <csignal>
#include <fstream>
#include <iostream>
#include <thread>

#include <httplib.h>

#include "broker_program.h"
#include "config/env.h"
#include "control_api.h"
#include "log/log.h"

int main() {
  try {
    const auto env = petstore::config::Env::from_process();
    const auto brokers = static_cast<int>(env.integer("MOCK_BROKERS", 3, 1, 9));
    const auto topics_file = env.str("MOCK_TOPICS_FILE", "schemas/topics.txt");
    const auto bootstrap_file = env.str("MOCK_BOOTSTRAP_FILE", "");
    const auto data_dir = env.str("MOCK_DATA_DIR", "");
    const auto control_host = env.str("MOCK_CONTROL_HOST", "127.0.0.1");
    const auto control_port = static_cast<int>(env.integer("MOCK_CONTROL_PORT", 9644, 1, 65535));

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // threads started below inherit this

    petstore::tools::BrokerProgram program(
        brokers, petstore::tools::read_topics_file(topics_file),
        data_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(data_dir));
    auto& cluster = program.cluster();

    httplib::Server control;
    petstore::tools::register_control_api(
        control, cluster,
        {[&program](const std::string& name, int partitions) { program.create_topic(name, partitions); },
         [&program] { return program.problem(); }});
    if (!control.bind_to_port(control_host, control_port)) {
      throw std::runtime_error("cannot bind control API to " + control_host + ":" +
                               std::to_string(control_port));
    }
    std::thread control_thread([&control] { control.listen_after_bind(); });

    if (!bootstrap_file.empty()) {
      // Written last, so a reader that sees the file knows the topics exist
      // and the log kept on disk is back.
      const auto tmp = bootstrap_file + ".tmp";
      std::ofstream(tmp) << cluster.bootstrap() << "\n";
      std::rename(tmp.c_str(), bootstrap_file.c_str());
    }
    std::cout << cluster.bootstrap() << std::endl;
    petstore::log::info("mock kafka cluster: {} brokers at {}, control API on {}:{}{}", brokers,
                        cluster.bootstrap(), control_host, control_port,
                        data_dir.empty() ? ", log in memory only" : ", log kept in " + data_dir);

    int sig = 0;
    sigwait(&signals, &sig);
    petstore::log::info("signal {}: stopping", sig);
    if (!bootstrap_file.empty()) {
      std::remove(bootstrap_file.c_str());
    }
    program.stop();
    control.stop();
    control_thread.join();
    return 0;
  } catch (const std::exception& e) {
    petstore::log::critical("kafka-mock-broker: {}", e.what());
    return 1;
  }
}
