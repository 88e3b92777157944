#include "support/service_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "support/http_json.h"
#include "support/stack.h"

extern char** environ;

namespace petstore::testing {

namespace {

// The first port the kernel hands out for outgoing connections and for
// bind(0): /proc/sys/net/ipv4/ip_local_port_range, 32768 by default.
int ephemeral_low() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 32768;
  in >> low;
  return low;
}

bool can_bind(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    return false;
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

}  // namespace

// Ports come from below the ephemeral range, and each is reserved among the
// suite's processes by a lock file held until this process exits. A port
// from bind(0) lies in the ephemeral range, and between our close() and the
// service's own bind any outgoing connection may be given it: the service's
// own Kafka and Redis clients connect before it listens, and a service
// then fails with "cannot listen on 127.0.0.1:<port>".
int free_port() {
  static std::mutex mutex;
  static std::vector<int> held;  // lock file descriptors, kept open on purpose
  static std::mt19937 spread(static_cast<std::uint32_t>(getpid()) ^ std::random_device{}());
  const std::lock_guard lock(mutex);
  const int high = ephemeral_low();
  const int low = std::max(1024, high - 12000);
  std::filesystem::create_directories("/tmp/petstore-test-ports");
  const int span = high - low;
  const int start = static_cast<int>(spread() % static_cast<std::uint32_t>(span));
  for (int i = 0; i < span; ++i) {
    const int port = low + (start + i) % span;
    const std::string path = "/tmp/petstore-test-ports/" + std::to_string(port);
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
      continue;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || !can_bind(port)) {
      close(fd);
      continue;
    }
    held.push_back(fd);
    return port;
  }
  throw std::runtime_error("cannot find a free port below the ephemeral range");
}

ServiceProcess::ServiceProcess(std::string binary, std::map<std::string, std::string> env)
    : binary_(std::move(binary)), env_(std::move(env)) {
  port_ = free_port();
  env_["HTTP_PORT"] = std::to_string(port_);
  log_path_ = "/tmp/petstore-test-" + unique_name("svc") + ".log";
  spawn();
}

ServiceProcess::ServiceProcess(std::string binary, std::vector<std::string> args, int port, std::string probe)
    : binary_(std::move(binary)), args_(std::move(args)), port_(port), probe_(std::move(probe)) {
  log_path_ = "/tmp/petstore-test-" + unique_name("proc") + ".log";
  spawn();
}

ServiceProcess::~ServiceProcess() {
  stop();
  // The log is kept for a run with a failure, to read afterwards; otherwise
  // it goes, or every run would leave its processes' logs in /tmp (684
  // files from a day's runs, before).
  const auto* unit = ::testing::UnitTest::GetInstance();
  if (!::testing::Test::HasFailure() && unit->failed_test_count() == 0) {
    std::error_code ignored;
    std::filesystem::remove(log_path_, ignored);
  } else {
    // Where the run happened elsewhere (CI), only what is printed is seen:
    // the process's last warnings say why it answered as it did.
    std::istringstream in(read_file(log_path_));
    std::deque<std::string> warnings;
    for (std::string line; std::getline(in, line);) {
      if (line.find(" warning [") != std::string::npos || line.find(" error [") != std::string::npos) {
        warnings.push_back(line);
        if (warnings.size() > 12) {
          warnings.pop_front();
        }
      }
    }
    std::fprintf(stderr, "kept %s's log: %s; its last warnings:\n", binary_.c_str(), log_path_.c_str());
    for (const auto& w : warnings) {
      std::fprintf(stderr, "  %s\n", w.c_str());
    }
  }
}

void ServiceProcess::spawn() {
  std::map<std::string, std::string> merged;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    merged[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : env_) {
    merged[k] = v;
  }
  std::vector<std::string> strings;
  strings.reserve(merged.size());
  for (const auto& [k, v] : merged) {
    strings.push_back(k);
    strings.back().append("=").append(v);
  }
  std::vector<char*> envp;
  envp.reserve(strings.size() + 1);
  for (auto& s : strings) {
    envp.push_back(s.data());
  }
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::string bin = binary_;
  auto args = args_;
  std::vector<char*> argv = {bin.data()};
  for (auto& a : args) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  const int rc = posix_spawn(&pid_, binary_.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw std::runtime_error("cannot start " + binary_);
  }
}

void ServiceProcess::wait_ready(std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("service exited during start-up:\n" + log_tail());
    }
    httplib::Client c("127.0.0.1", port_);
    c.set_connection_timeout(std::chrono::milliseconds(200));
    if (const auto r = c.Get(probe_); r && r->status == 200) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("service not ready in time:\n" + log_tail());
}

std::string ServiceProcess::log() const {
  std::ifstream in(log_path_);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void ServiceProcess::stop() {
  if (pid_ <= 0) {
    return;
  }
  kill(pid_, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill_hard();
}

void ServiceProcess::signal_stop() const {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
  }
}

bool ServiceProcess::wait_exit(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (pid_ > 0) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    if (std::chrono::steady_clock::now() >= until) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

void ServiceProcess::kill_hard() {
  if (pid_ <= 0) {
    return;
  }
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void ServiceProcess::restart() {
  stop();
  spawn();
  // Healthy means every consumer group has assigned this replica. After a
  // replica of the same group was killed, that takes the dead member's
  // session timeout (6 s) plus one rebalance per group, more under ASan and
  // when another replica restarts at the same time: 20 s was once too short.
  wait_ready(std::chrono::seconds(45));
}

std::unique_ptr<httplib::Client> ServiceProcess::client() const {
  auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
  c->set_read_timeout(std::chrono::seconds(15));
  if (!api_key_.empty()) {
    c->set_default_headers({{"X-API-Key", api_key_}});
  }
  return c;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ServiceProcess::log_tail() const {
  const auto all = read_file(log_path_);
  return all.size() > 4000 ? all.substr(all.size() - 4000) : all;
}

std::map<std::string, std::string> deployment_env(const std::string& prefix,
                                                  const std::map<std::string, std::string>& overrides) {
  const auto& s = Stack::get();
  std::map<std::string, std::string> env = {
      {"PETSTORE_PREFIX", prefix},
      {"KAFKA_BROKERS", s.kafka_brokers},
      {"REDIS_HOST", s.redis_host},
      {"REDIS_PORT", std::to_string(s.redis_port)},
      {"HTTP_THREADS", "32"},
      {"LOG_LEVEL", "info"},
      {"PETSTORE_ADMIN_TOKEN", kAdminToken},
  };
  for (const auto& [k, v] : overrides) {
    env[k] = v;
  }
  // Key management's topic, the deployment's own (once per prefix: a test
  // may ask for the environment again to start more replicas).
  if (!env.contains("KAFKA_TOPIC_APIKEYS")) {
    static std::mutex mutex;
    static std::set<std::string> created;
    const std::lock_guard lock(mutex);
    const auto topic = prefix + ".apikeys";
    if (created.insert(topic).second) {
      create_topic(topic, 1, env.at("KAFKA_BROKERS"));
    }
    env["KAFKA_TOPIC_APIKEYS"] = topic;
  }
  return env;
}

std::string issue_api_key(httplib::Client& admin, const std::string& plan_json) {
  const auto r = admin.Post("/admin/keys", {{"Authorization", std::string("Bearer ") + kAdminToken}},
                            plan_json, "application/json");
  if (!r || r->status != 201) {
    throw std::runtime_error("cannot issue an API key: " + (r ? r->body : std::string("no answer")));
  }
  return parse(r->body)["key"].GetString();
}

std::string issue_unlimited_key(httplib::Client& admin) {
  return issue_api_key(admin,
                       R"({"plan":"enterprise","limits":{"perMinute":1000000000,"perDay":1000000000}})");
}

PetsDeployment::PetsDeployment(int replicas, const std::map<std::string, std::string>& extra_env)
    : prefix_(unique_name("t")), pets_topic_(prefix_ + ".pets"), categories_topic_(prefix_ + ".categories") {
  const auto brokers =
      extra_env.contains("KAFKA_BROKERS") ? extra_env.at("KAFKA_BROKERS") : Stack::get().kafka_brokers;
  create_topic(pets_topic_, 6, brokers);
  create_topic(categories_topic_, 3, brokers);
  auto topics = extra_env;
  topics.insert({{"KAFKA_TOPIC_PETS", pets_topic_}, {"KAFKA_TOPIC_CATEGORIES", categories_topic_}});
  auto env = deployment_env(prefix_, topics);
  for (int i = 0; i < replicas; ++i) {
    env["INSTANCE_ID"] = "replica" + std::to_string(i);
    replicas_.push_back(std::make_unique<ServiceProcess>(PETS_BINARY, env));
  }
  // Twice: a replica that joins the pets writers' group moves partitions
  // away from the ones already ready, which are briefly not ready again.
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& r : replicas_) {
      r->wait_ready();
    }
  }
  api_key_ = issue_unlimited_key(*replicas_.front()->client());
  for (auto& r : replicas_) {
    r->use_api_key(api_key_);
  }
}

CommandRun run_command(const std::string& command_line) {
  CommandRun run;
  // The test's own command lines (the tools under test, with a redirection).
  FILE* p = popen(command_line.c_str(), "r");  // NOLINT(bugprone-command-processor)
  if (p == nullptr) {
    return run;
  }
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) {
    run.out.append(buf.data(), n);
  }
  const int status = pclose(p);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace petstore::testing
