#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <httplib.h>

#include "support/service_process.h"

namespace petstore::testing {

// The entry point (nginx), configured from deploy/nginx exactly as scripts/up
// does, with its files in `run_dir` and `servers[service]` as each
// service's upstream lines ("    server 127.0.0.1:<port> ...;\n"), started
// and answering `probe`. The platform's routes go to every service's
// replicas, or to `servers["any"]` when it is given.
std::unique_ptr<ServiceProcess> start_entry_point(const std::string& run_dir,
                                                  const std::map<std::string, std::string>& servers,
                                                  const std::string& probe = "/readyz");

// The whole store for one test: its own topics and Redis prefix, `replicas`
// processes of each service (pets, orders, inventory), and the entry point
// (nginx, configured from deploy/nginx exactly as scripts/up does) in front.
class StoreDeployment {
 public:
  using Env = std::map<std::string, std::string>;
  // `partition_scale` multiplies each topic's partitions. Its topics are on
  // extra_env's KAFKA_BROKERS when it names them (the cluster), else on the
  // suite's one Kafka node. `replica_env` adds to (or overrides) extra_env
  // for single replicas, by INSTANCE_ID ("orders0").
  explicit StoreDeployment(int replicas, const Env& extra_env = {}, int partition_scale = 1,
                           const std::map<std::string, Env>& replica_env = {});
  ~StoreDeployment();
  StoreDeployment(const StoreDeployment&) = delete;
  StoreDeployment& operator=(const StoreDeployment&) = delete;

  // A client of the entry point, sending an unlimited API key (api_key()).
  [[nodiscard]] std::unique_ptr<httplib::Client> client() const;
  [[nodiscard]] const std::string& api_key() const { return api_key_; }
  // The services of services/services.txt, each with its replicas.
  [[nodiscard]] static std::vector<std::string> services();
  [[nodiscard]] ServiceProcess& replica(const std::string& service, size_t i) {
    return *replicas_.at(service).at(i);
  }
  [[nodiscard]] const std::string& prefix() const { return prefix_; }
  [[nodiscard]] const std::string& brokers() const { return brokers_; }
  [[nodiscard]] int entry_port() const { return entry_->port(); }
  [[nodiscard]] ServiceProcess& entry() { return *entry_; }
  // The entry point's error log (why nginx gave up on an upstream), for a
  // failing test to print.
  [[nodiscard]] std::string entry_error_log() const;
  [[nodiscard]] std::string topic(const std::string& name) const { return prefix_ + "." + name; }
  // Runs petstore-audit (`binary`) with `args` against this store's
  // topics and read models (on the deployment's Redis: the suite's,
  // unless extra_env names another).
  [[nodiscard]] CommandRun audit(const std::string& binary, const std::string& args) const;

 private:
  std::string prefix_;
  std::string brokers_;
  std::string redis_;  // host:port
  std::string run_dir_;
  std::string api_key_;
  std::map<std::string, std::vector<std::unique_ptr<ServiceProcess>>> replicas_;
  std::unique_ptr<ServiceProcess> entry_;
};

}  // namespace petstore::testing
