#!/usr/bin/env bash
# scripts/lint-compose passes on compose.yaml as it is, and fails, naming the
# fault, on copies broken the ways a change could break them: a schema
# error, a topic the code uses missing from schemas/topics.txt, the log's
# durability weakened, a variable compose needs dropped or misspelt.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/petstore-compose.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failures=0

# check <compose sed> <topics sed>: lints copies of compose.yaml and
# schemas/topics.txt changed by these sed expressions; output in $WORK/out.
check() {
  sed -e "$1" "$ROOT/compose.yaml" >"$WORK/compose.yaml"
  sed -e "$2" "$ROOT/schemas/topics.txt" >"$WORK/topics.txt"
  # The copy sits elsewhere: its relative paths must still name the repository's files.
  sed -i -e "s|\./schemas/topics.txt|$ROOT/schemas/topics.txt|; s|\./deploy/|$ROOT/deploy/|" "$WORK/compose.yaml"
  "$ROOT/scripts/lint-compose" --compose "$WORK/compose.yaml" --topics "$WORK/topics.txt" >"$WORK/out" 2>&1
}
# expect_failure <what> <expected output> <compose sed> [topics sed]
expect_failure() {
  local what=$1 expected=$2
  if check "$3" "${4:-}"; then
    echo "FAILED: $what was not found"; failures=$((failures + 1))
  elif ! grep -q -- "$expected" "$WORK/out"; then
    echo "FAILED: $what: expected '$expected' in:"; cat "$WORK/out"; failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}

"$ROOT/scripts/lint-compose" >"$WORK/ok.out" 2>&1 || { cat "$WORK/ok.out"; echo "FAILED: compose.yaml as it is"; exit 1; }
echo "ok: compose.yaml as it is: $(tail -n 1 "$WORK/ok.out")"
check "" "" || { cat "$WORK/out"; echo "FAILED: an unchanged copy"; exit 1; }
echo "ok: an unchanged copy"

expect_failure "a key the schema does not know" "invalid-schema" 's/^    restart: unless-stopped/    restartt: unless-stopped/'
expect_failure "a topic the code uses, missing from the list" "which schemas/topics.txt does not list" "" '/^petstore.orders.v1/d'
expect_failure "a listed topic no program uses" "which no program uses" "" '$a petstore.ghosts.v1 3'
expect_failure "topics at replication factor 1" "replication-factor 3" 's/--replication-factor 3/--replication-factor 1/'
expect_failure "topics that expire" "retention.ms=-1" 's/retention.ms=-1/retention.ms=604800000/g'
expect_failure "min.insync.replicas 1 on the brokers" "KAFKA_MIN_INSYNC_REPLICAS=1" 's/KAFKA_MIN_INSYNC_REPLICAS: 2/KAFKA_MIN_INSYNC_REPLICAS: 1/'
expect_failure "unclean leader election" "KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE" 's/KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE: "false"/KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE: "true"/'
expect_failure "a broker without its volume" "outside any volume" '/kafka-2-data:\/var\/lib\/kafka\/data\]/d'
expect_failure "Redis without a volume" "outside a named volume" '/redis-data:\/data\]/d'
expect_failure "a misspelt variable" "sets REDIS_HOTS, which no service reads" 's/^  REDIS_HOST: redis/  REDIS_HOTS: redis/'
expect_failure "a variable scripts/up sets, missing" "compose.yaml does not set it" '/^  REDIS_PORT: 6379/d'
expect_failure "the brokers list of the services" "KAFKA_BROKERS=kafka-1:9092" 's/^  KAFKA_BROKERS: kafka-1:9092,kafka-2:9092,kafka-3:9092/  KAFKA_BROKERS: kafka-1:9092/'
expect_failure "a Kafka service on another image" "not x-kafka-image" '/^  kafka-topics:$/a\    image: apache/kafka:3.8.0'
expect_failure "the broker's version unnamed" "not a <version>" 's|^    args: {KAFKA_VERSION: [0-9.]*}$|    args: {KAFKA_VERSION: latest}|'
expect_failure "a health check on the wrong port" "its health check asks another port" 's|127.0.0.1:8080/readyz|127.0.0.1:8081/readyz|'
expect_failure "the services on another port than the entry point's" "reaches the services on port 8080" 's|^  HTTP_PORT: 8080|  HTTP_PORT: 8090|'

((failures == 0)) || { echo "$failures case(s) failed"; exit 1; }
echo "all cases passed"
