#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <httplib.h>

namespace petstore::testing {

// A service binary running as a child process on a free loopback port, with
// the environment a test gives it. Stopped (SIGTERM, then SIGKILL) on
// destruction; its log goes to a file named in failure messages.
class ServiceProcess {
 public:
  ServiceProcess(std::string binary, std::map<std::string, std::string> env);
  // Any program with arguments, answering `probe` on `port` when ready: the
  // entry point's nginx (/readyz, a replica's), the broker program (/healthz).
  ServiceProcess(std::string binary, std::vector<std::string> args, int port, std::string probe = "/readyz");
  ~ServiceProcess();
  ServiceProcess(const ServiceProcess&) = delete;
  ServiceProcess& operator=(const ServiceProcess&) = delete;

  // Waits until GET /readyz (or the probe given) answers 200; throws with the log tail if not.
  // Ready includes every consumer group having assigned the replica and the
  // read model being whole (rebuilt, if it was missing): with
  // two replicas joining one group at once under ASan on a busy two-core
  // machine that takes a while, so the default leaves room; it bounds a
  // failure, it does not time a success.
  void wait_ready(std::chrono::milliseconds timeout = std::chrono::seconds(45));
  void stop();
  // SIGTERM, without waiting: the process stops as it would under an operator.
  void signal_stop() const;
  // Waits up to `timeout` for the process to exit (and reaps it); false if it still runs.
  bool wait_exit(std::chrono::milliseconds timeout);
  void kill_hard();  // SIGKILL: a crash, no cleanup
  void restart();

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  // A client of the process; it sends the API key set with use_api_key().
  [[nodiscard]] std::unique_ptr<httplib::Client> client() const;
  void use_api_key(std::string key) { api_key_ = std::move(key); }
  [[nodiscard]] std::string log_tail() const;
  // The whole log the process (and its earlier runs) wrote.
  [[nodiscard]] std::string log() const;

 private:
  void spawn();

  std::string binary_;
  std::vector<std::string> args_;
  std::map<std::string, std::string> env_;
  int port_ = 0;
  pid_t pid_ = -1;
  std::string log_path_;
  std::string api_key_;
  std::string probe_ = "/readyz";
};

int free_port();

// The admin token every test deployment's services are started with.
inline constexpr const char* kAdminToken = "petstore-test-admin-token";

// A command line run through the shell to its end: its exit status (-1 if
// it did not exit normally) and its standard output; standard error is left
// to the test's log.
struct CommandRun {
  int status = -1;
  std::string out;
};
CommandRun run_command(const std::string& command_line);

// The whole file at `path`; empty if it cannot be read.
std::string read_file(const std::string& path);

// Issues an API key through the admin API at `admin` (with the services'
// test admin token, kAdminToken) for `plan_json`, e.g. {"plan":"pro"}; returns the key.
std::string issue_api_key(httplib::Client& admin, const std::string& plan_json);

// An Enterprise key with limits no test reaches: for tests about something
// other than the rate limiter, which still pass through it.
std::string issue_unlimited_key(httplib::Client& admin);

// The environment of a test deployment's services: Redis prefix `prefix`, the
// test broker and Redis, then `overrides` (topic names, test settings), and
// unless they name one, a keys topic "<prefix>.apikeys" of the deployment's own.
std::map<std::string, std::string> deployment_env(const std::string& prefix,
                                                  const std::map<std::string, std::string>& overrides);

// A deployment of the pets service for one test: its own topics, Redis
// prefix and consumer group, and `replicas` processes sharing them.
class PetsDeployment {
 public:
  explicit PetsDeployment(int replicas, const std::map<std::string, std::string>& extra_env = {});

  [[nodiscard]] ServiceProcess& replica(size_t i) { return *replicas_.at(i); }
  [[nodiscard]] size_t size() const { return replicas_.size(); }
  [[nodiscard]] const std::string& prefix() const { return prefix_; }
  [[nodiscard]] const std::string& pets_topic() const { return pets_topic_; }
  [[nodiscard]] const std::string& categories_topic() const { return categories_topic_; }
  [[nodiscard]] std::string redis_key_base() const { return prefix_ + ":{pets}:"; }
  [[nodiscard]] const std::string& api_key() const { return api_key_; }

 private:
  std::string prefix_;
  std::string pets_topic_;
  std::string categories_topic_;
  std::string api_key_;
  std::vector<std::unique_ptr<ServiceProcess>> replicas_;
};

}  // namespace petstore::testing
