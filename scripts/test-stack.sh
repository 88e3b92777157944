# Sourced after scripts/lib.sh by scripts/test, scripts/run-tests and
# scripts/reliability-table.

# start_test_stack: what the integration tests run against (scripts/test,
# scripts/run-tests), on free ports: one Redis, one Kafka node for most
# tests, and a cluster of three (replication factor 3, min.insync.replicas
# 2) for the tests of replication, leader changes and broker loss, which
# kill and pause its nodes. Exports what tests/integration/support/stack.h
# reads.
start_test_stack() {
  local redis_port
  reserve_ports redis_port
  log "Starting Redis (port $redis_port)"
  start_redis "$redis_port"
  export PETSTORE_TEST_REDIS_PORT=$redis_port
  log "Starting Apache Kafka $(kafka_version): one node, and a cluster of three"
  kafka_libs
  start_kafka kafka 1
  # The project's own topics too, for the tests of a service on its defaults.
  create_topics "$KAFKA_BROKERS" 1
  export PETSTORE_TEST_KAFKA_BROKERS=$KAFKA_BROKERS
  start_kafka cluster 3
  export PETSTORE_TEST_CLUSTER_BROKERS=$KAFKA_BROKERS PETSTORE_TEST_RUN_DIR=$RUN_DIR
  export PETSTORE_TEST_CLUSTER_LINK_BROKERS=$KAFKA_LINK_BROKERS
  export PETSTORE_TEST_CLUSTER_LINK_LISTENERS=$KAFKA_LINK_LISTENERS
  # The API page each test's entry point serves at /docs.
  docs_site "$RUN_DIR"
  export PETSTORE_TEST_SITE_DIR=$SITE_DIR
  # The node's own word for its version: the one compose.yaml names.
  grep -q "Kafka version: $(kafka_version) (" "$RUN_DIR/kafka1.log" ||
    die "the Kafka node does not report version $(kafka_version) (log: $RUN_DIR/kafka1.log)"
  log "  Kafka node at $PETSTORE_TEST_KAFKA_BROKERS, cluster at $PETSTORE_TEST_CLUSTER_BROKERS"
  # librdkafka and OpenSSL keep some allocations until exit by design.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
}
