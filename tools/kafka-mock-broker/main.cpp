// Hosts librdkafka's mock Kafka cluster on loopback for local runs and tests:
// creates the project's topics, writes the bootstrap list to a file, and serves
// a small HTTP control API for fault injection until SIGINT/SIGTERM.
#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <httplib.h>
#include <spdlog/spdlog.h>

#include "config/env.h"
#include "control_api.h"
#include "mock_cluster.h"

namespace {

// Lines of "<topic> <partitions>", '#' starts a comment (schemas/topics.txt).
void create_topics(petstore::tools::MockCluster& cluster, const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("cannot read topics file " + path);
  }
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) {
      line.resize(hash);
    }
    std::istringstream fields(line);
    std::string topic;
    int partitions = 0;
    if (fields >> topic >> partitions) {
      cluster.create_topic(topic, partitions);
      spdlog::info("created topic {} with {} partitions", topic, partitions);
    }
  }
}

}  // namespace

int main() {
  try {
    const auto env = petstore::config::Env::from_process();
    const auto brokers = static_cast<int>(env.integer("MOCK_BROKERS", 3, 1, 9));
    const auto topics_file = env.str("MOCK_TOPICS_FILE", "schemas/topics.txt");
    const auto bootstrap_file = env.str("MOCK_BOOTSTRAP_FILE", "");
    const auto control_host = env.str("MOCK_CONTROL_HOST", "127.0.0.1");
    const auto control_port = static_cast<int>(env.integer("MOCK_CONTROL_PORT", 9644, 1, 65535));

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // threads started below inherit this

    petstore::tools::MockCluster cluster(brokers);
    create_topics(cluster, topics_file);

    httplib::Server control;
    petstore::tools::register_control_api(control, cluster);
    if (!control.bind_to_port(control_host, control_port)) {
      throw std::runtime_error("cannot bind control API to " + control_host + ":" +
                               std::to_string(control_port));
    }
    std::thread control_thread([&control] { control.listen_after_bind(); });

    if (!bootstrap_file.empty()) {
      // Written last, so a reader that sees the file knows the topics exist.
      const auto tmp = bootstrap_file + ".tmp";
      std::ofstream(tmp) << cluster.bootstrap() << "\n";
      std::rename(tmp.c_str(), bootstrap_file.c_str());
    }
    std::cout << cluster.bootstrap() << std::endl;
    spdlog::info("mock kafka cluster: {} brokers at {}, control API on {}:{}", brokers, cluster.bootstrap(),
                 control_host, control_port);

    int sig = 0;
    sigwait(&signals, &sig);
    spdlog::info("signal {}: stopping", sig);
    control.stop();
    control_thread.join();
    if (!bootstrap_file.empty()) {
      std::remove(bootstrap_file.c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    spdlog::critical("kafka-mock-broker: {}", e.what());
    return 1;
  }
}
