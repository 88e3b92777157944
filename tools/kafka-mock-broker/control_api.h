#pragma once

#include <httplib.h>

#include "mock_cluster.h"

namespace petstore::tools {

// Registers the HTTP control interface tests use to inject faults:
//   GET  /bootstrap                      the bootstrap list, as text
//   POST /topics                         {"name": "...", "partitions": N}
//   POST /brokers/{id}/down | /up        take a broker off or on the network
//   POST /brokers/{id}/rtt               {"ms": N} added round-trip time
//   POST /errors                         {"apiKey": K, "errors": [E, ...]} fail the next requests
//   DELETE /errors/{apiKey}              forget queued errors
//   POST /leader                         {"topic": "...", "partition": P, "broker": B}
void register_control_api(httplib::Server& server, MockCluster& cluster);

}  // namespace petstore::tools
