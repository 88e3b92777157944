# Shared by scripts/up, scripts/down, scripts/test and bench/: building,
# starting and stopping the broker, Redis, services and the entry point.
# Every process started here writes a pid file under $RUN_DIR.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=${JOBS:-2}

log() { printf '\033[1m%s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# build <dir> [cmake args...]: the compiler's output is shown only on failure.
build() {
  local dir=$1; shift
  mkdir -p "$dir"
  if ! { cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" && cmake --build "$dir" -j"$JOBS"; } \
    >"$dir/build.log" 2>&1; then
    grep -E 'error|Error' "$dir/build.log" | head -40 >&2
    die "build in $dir failed (full log: $dir/build.log)"
  fi
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_until <seconds> <description> <command...>
wait_until() {
  local seconds=$1 what=$2; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "timed out waiting for $what"
    sleep 0.1
  done
}

# start_redis <port> [unix socket path]
start_redis() {
  local port=$1 socket=${2:-}
  port_busy "$port" && die "port $port is in use; set REDIS_PORT to a free port"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    ${socket:+--unixsocket "$socket" --unixsocketperm 700} \
    --daemonize yes --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" --dir "$RUN_DIR"
  wait_until 10 "redis on port $port" redis-cli -p "$port" ping
}

# start_broker <build dir> <control port>: sets KAFKA_BROKERS
start_broker() {
  local build_dir=$1 control_port=$2
  port_busy "$control_port" && die "port $control_port is in use; set MOCK_CONTROL_PORT to a free port"
  rm -f "$RUN_DIR/kafka.bootstrap"
  MOCK_TOPICS_FILE="$ROOT/schemas/topics.txt" MOCK_BOOTSTRAP_FILE="$RUN_DIR/kafka.bootstrap" \
    MOCK_CONTROL_PORT=$control_port \
    nohup "$build_dir/tools/kafka-mock-broker/kafka-mock-broker" >"$RUN_DIR/broker.log" 2>&1 &
  echo $! >"$RUN_DIR/broker.pid"
  wait_until 20 "the Kafka broker" test -s "$RUN_DIR/kafka.bootstrap"
  KAFKA_BROKERS=$(cat "$RUN_DIR/kafka.bootstrap")
  export KAFKA_BROKERS
}

# start_service <build dir> <service> <replica> <port>
start_service() {
  local build_dir=$1 service=$2 replica=$3 port=$4
  port_busy "$port" && die "port $port is in use"
  INSTANCE_ID="$service-$replica" HTTP_PORT=$port \
    nohup "$build_dir/services/$service/$service" >"$RUN_DIR/$service-$replica.log" 2>&1 &
  echo $! >"$RUN_DIR/$service-$replica.pid"
}

healthy() { curl -fsS -o /dev/null --max-time 1 "$1/healthz"; }

# stop_all: stops every process with a pid file under $RUN_DIR, newest layer first.
stop_all() {
  local f pid
  for f in "$RUN_DIR"/nginx.pid "$RUN_DIR"/*-*.pid "$RUN_DIR"/broker.pid "$RUN_DIR"/redis.pid; do
    [[ -f $f ]] || continue
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
}
