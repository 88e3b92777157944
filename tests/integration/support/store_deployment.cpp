#include "support/store_deployment.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "support/service_process.h"
#include "support/services.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  std::ranges::transform(out, out.begin(),
                         [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// The topics of schemas/topics.txt a deployment gets its own copies of, by
// short name (petstore.<name>.v1), with their partitions. The keys'
// topic is deployment_env's.
std::vector<std::pair<std::string, int>> store_topics() {
  std::istringstream in(read_file(std::string(PETSTORE_SOURCE_DIR) + "/schemas/topics.txt"));
  std::vector<std::pair<std::string, int>> out;
  std::string topic;
  int partitions = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    if (line.starts_with("#") || !(fields >> topic >> partitions)) {
      continue;
    }
    const auto name = topic.substr(9, topic.size() - 9 - 3);  // petstore.<name>.v1
    if (name != "apikeys") {
      out.emplace_back(name, partitions);
    }
  }
  return out;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

std::unique_ptr<ServiceProcess> start_entry_point(const std::string& run_dir,
                                                  const std::map<std::string, std::string>& servers,
                                                  const std::string& probe) {
  std::filesystem::create_directories(run_dir + "/nginx-tmp");
  auto conf = read_file(std::string(PETSTORE_SOURCE_DIR) + "/deploy/nginx/local.conf.template");
  const int port = free_port();
  replace_all(conf, "@RUN_DIR@", run_dir);
  replace_all(conf, "@CONF_DIR@", std::string(PETSTORE_SOURCE_DIR) + "/deploy/nginx");
  replace_all(conf, "@SITE_DIR@", Stack::get().site_dir);
  replace_all(conf, "@HOST@", "127.0.0.1");
  replace_all(conf, "@PORT@", std::to_string(port));
  // One upstream a service, and "any" (every replica, unless `servers`
  // names its own), as scripts/lib.sh's nginx_upstreams renders them; and
  // the source tree's services/ beside the file, for routes.conf's map.
  const auto upstream = read_file(std::string(PETSTORE_SOURCE_DIR) + "/deploy/nginx/upstream.conf.template");
  const auto render = [&upstream](const std::string& name, const std::string& lines) {
    auto block = upstream;
    replace_all(block, "@NAME@", name);
    replace_all(block, "@SERVERS@\n", lines);
    return block;
  };
  std::string upstreams;
  std::string every;
  for (const auto& service : StoreDeployment::services()) {
    const auto& lines = servers.at(service);
    upstreams += render(service, lines);
    every += lines;
  }
  upstreams += render("any", servers.contains("any") ? servers.at("any") : every);
  replace_all(conf, "@UPSTREAMS@\n", upstreams);
  std::filesystem::remove(run_dir + "/services");
  std::filesystem::create_symlink(std::string(PETSTORE_SOURCE_DIR) + "/services", run_dir + "/services");
  const auto conf_path = run_dir + "/nginx.conf";
  std::ofstream(conf_path) << conf;
  auto entry = std::make_unique<ServiceProcess>(
      "/usr/sbin/nginx",
      std::vector<std::string>{"-c", conf_path, "-e", run_dir + "/nginx-error.log", "-g", "daemon off;"},
      port, probe);
  entry->wait_ready();
  return entry;
}

std::vector<std::string> StoreDeployment::services() {
  std::vector<std::string> out;
  out.reserve(kServices.size());
  for (const auto& service : kServices) {
    out.emplace_back(service.name);
  }
  return out;
}

StoreDeployment::StoreDeployment(int replicas, const std::map<std::string, std::string>& extra_env,
                                 int partition_scale, const std::map<std::string, Env>& replica_env)
    : prefix_(unique_name("s")),
      brokers_(extra_env.contains("KAFKA_BROKERS") ? extra_env.at("KAFKA_BROKERS")
                                                   : Stack::get().kafka_brokers) {
  auto overrides = extra_env;
  for (const auto& [name, partitions] : store_topics()) {
    create_topic(topic(name), partitions * partition_scale, brokers_);
    overrides.insert({"KAFKA_TOPIC_" + upper(name), topic(name)});
  }
  auto env = deployment_env(prefix_, overrides);
  redis_ = env.at("REDIS_HOST") + ":" + env.at("REDIS_PORT");
  std::map<std::string, std::string> servers;
  for (const auto& [service_name, binary] : kServices) {
    const std::string service(service_name);
    for (int i = 0; i < replicas; ++i) {
      const auto id = service + std::to_string(i);
      auto own = env;
      own["INSTANCE_ID"] = id;
      if (const auto it = replica_env.find(id); it != replica_env.end()) {
        for (const auto& [name, value] : it->second) {
          own[name] = value;
        }
      }
      auto& r = replicas_[service].emplace_back(std::make_unique<ServiceProcess>(std::string(binary), own));
      servers[service] +=
          "    server 127.0.0.1:" + std::to_string(r->port()) + " max_fails=1 fail_timeout=2s;\n";
    }
  }
  for (auto& [service, list] : replicas_) {
    for (auto& r : list) {
      r->wait_ready();
    }
  }

  run_dir_ = "/tmp/petstore-test-" + prefix_;
  entry_ = start_entry_point(run_dir_, servers);
  api_key_ = issue_unlimited_key(*entry_->client());
  entry_->use_api_key(api_key_);
  for (auto& [service, list] : replicas_) {
    for (auto& r : list) {
      r->use_api_key(api_key_);
    }
  }
}

StoreDeployment::~StoreDeployment() {
  entry_.reset();
  replicas_.clear();
  std::error_code ignored;
  std::filesystem::remove_all(run_dir_, ignored);
}

std::string StoreDeployment::entry_error_log() const {
  return read_file(run_dir_ + "/nginx-error.log");
}

std::unique_ptr<httplib::Client> StoreDeployment::client() const {
  return entry_->client();
}

CommandRun StoreDeployment::audit(const std::string& binary, const std::string& args) const {
  // The tool's flag for a topic is --topic-<short name>.
  std::string topics = " --topic-apikeys " + topic("apikeys");
  for (const auto& [name, partitions] : store_topics()) {
    topics += " --topic-" + name + " " + topic(name);
  }
  return run_command(binary + " --no-progress --redis " + redis_ + " --prefix " + prefix_ + " --brokers " +
                     brokers_ + topics + " " + args);
}

}  // namespace petstore::testing
