#pragma once

#include <functional>
#include <string>

#include <httplib.h>

#include "mock_cluster.h"

namespace petstore::tools {

// What the control API asks of the broker program beyond the cluster itself.
struct ControlHooks {
  // Creates a topic (in the cluster, and in the journal when there is one).
  std::function<void(const std::string& name, int partitions)> create_topic;
  // Empty while the broker program is sound; otherwise what is wrong (the
  // journal could not follow a partition), and /healthz answers 503.
  std::function<std::string()> problem;
};

// Registers the HTTP control interface tests use to inject faults:
//   GET  /bootstrap                      the bootstrap list, as text
//   GET  /healthz                        200 "ok", or 503 and the problem
//   POST /topics                         {"name": "...", "partitions": N}
//   POST /brokers/{id}/down | /up        take a broker off or on the network
//   POST /brokers/{id}/rtt               {"ms": N} added round-trip time
//   POST /errors                         {"apiKey": K, "errors": [E, ...]} fail the next requests
//   DELETE /errors/{apiKey}              forget queued errors
//   POST /leader                         {"topic": "...", "partition": P, "broker": B}
void register_control_api(httplib::Server& server, MockCluster& cluster, const ControlHooks& hooks);

}  // namespace petstore::tools
