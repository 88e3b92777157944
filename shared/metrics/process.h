#pragma once

#include "metrics/registry.h"

namespace petstore::metrics {

// The process's own figures, read from /proc at each scrape, under the
// names Prometheus' client libraries use: process_cpu_seconds_total,
// process_resident_memory_bytes, process_virtual_memory_bytes,
// process_open_fds, process_max_fds, process_start_time_seconds, and
// process_threads.
void register_process_metrics(Registry& registry);

}  // namespace petstore::metrics
