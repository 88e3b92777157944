#!/bin/bash
# The Kafka image's entry point (deploy/kafka/Dockerfile).
#   run                 one KRaft node: every KAFKA_* variable but the
#                       JVM's is a property (KAFKA_LOG_DIRS is log.dirs);
#                       the storage is formatted with CLUSTER_ID on first start
#   run tool CLASS ...  one of Kafka's command-line tools (TopicCommand, ...)
set -euo pipefail
classpath='/opt/kafka/libs/*'
if [[ ${1:-} == tool ]]; then
  shift
  exec java -Xmx256m -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties -cp "$classpath" "$@"
fi
props=/tmp/server.properties
: >"$props"
for var in "${!KAFKA_@}"; do
  [[ $var == KAFKA_HEAP || $var == KAFKA_VERSION ]] && continue
  name=${var#KAFKA_}
  name=${name,,}
  printf '%s=%s\n' "${name//_/.}" "${!var}" >>"$props"
done
: "${CLUSTER_ID:?set CLUSTER_ID (kafka-storage random-uuid)}"
java -Xmx256m -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties -cp "$classpath" \
  kafka.tools.StorageTool format --ignore-formatted -t "$CLUSTER_ID" -c "$props" >/dev/null
heap=${KAFKA_HEAP:-512m}
exec java "-Xms$heap" "-Xmx$heap" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExplicitGCInvokesConcurrent \
  -Djava.awt.headless=true -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties \
  -cp "$classpath" kafka.Kafka "$props"
