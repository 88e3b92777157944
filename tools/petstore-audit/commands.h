#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "log_reader.h"
#include "record.h"
#include "redis/connection.h"

namespace petstore::audit {

struct Options {
  std::string brokers;
  Topics topics;
  ReadBounds bounds;
  bool progress = true;
  std::string command;  // verify | rebuild | history | as-of
  // verify
  std::optional<std::chrono::milliseconds> max_pending_age;
  bool json = false;  // verify's report, history's JSON Lines
  // rebuild: the live read model's Redis and key prefix, and the prefix the
  // log is folded into
  redis::Endpoint redis;
  std::string prefix = "petstore";
  std::string into;
  bool keep = false;
  std::chrono::seconds settle{30};
  // history, as-of: the aggregate
  std::optional<Kind> kind;
  std::int64_t id = 0;
};

// Parses the command line; throws std::invalid_argument with a message for
// the user. `env` gives the defaults (KAFKA_BROKERS, KAFKA_TOPIC_*).
Options parse_options(const std::vector<std::string>& args);
std::string usage();

// Each returns the process's exit status: 0 clean, 1 violations or
// differences found (or, for history and as-of, nothing found), 2 the log or
// Redis could not be read.
int run_verify(const Options& o);
int run_rebuild(const Options& o);
int run_history(const Options& o);
int run_as_of(const Options& o);

}  // namespace petstore::audit
