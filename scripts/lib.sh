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

# launch <name> <command...>: runs the command in the background, its output
# in $RUN_DIR/<name>.log. With SUPERVISE=1 (scripts/up) a supervisor runs it
# and restarts it whenever it exits without being asked to, after a backoff
# of 1 s that doubles up to 30 s (and starts again at 1 s once the process
# has stayed up for a minute); each exit and restart is a line in
# $RUN_DIR/supervisor.log. $RUN_DIR/<name>.pid names the supervisor (or the
# process itself without one); stop_all stops both.
launch() {
  local name=$1; shift
  if [[ ${SUPERVISE:-0} != 1 ]]; then
    nohup "$@" >>"$RUN_DIR/$name.log" 2>&1 &
    echo $! >"$RUN_DIR/$name.pid"
    return
  fi
  (
    set +e
    trap '' HUP
    child=0 stopping=0 backoff=1
    trap 'stopping=1; ((child > 0)) && kill -TERM "$child" 2>/dev/null' TERM INT
    while :; do
      started=$SECONDS
      "$@" >>"$RUN_DIR/$name.log" 2>&1 &
      child=$!
      echo "$child" >"$RUN_DIR/$name.child"
      # wait returns early when the TERM trap runs: wait again until the process is gone.
      wait "$child"; rc=$?
      while kill -0 "$child" 2>/dev/null; do wait "$child"; rc=$?; done
      ((stopping)) && exit 0
      ((SECONDS - started >= 60)) && backoff=1
      echo "$(date -u +%FT%TZ) $name (pid $child) exited with status $rc; restarting in ${backoff}s" \
        >>"$RUN_DIR/supervisor.log"
      sleep "$backoff" &
      wait $!
      ((stopping)) && exit 0
      backoff=$((backoff * 2 > 30 ? 30 : backoff * 2))
    done
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$RUN_DIR/$name.pid"
}

# start_redis <port> [unix socket path]: without a save schedule or an
# append-only file (the tests' and benchmarks' Redis), under launch.
# maxmemory with volatile-lru: under memory pressure Redis evicts only keys
# with an expiry (rate-limit windows, idempotency records, locks), never the
# API keys or read models, which have none.
start_redis() {
  local port=$1 socket=${2:-}
  port_busy "$port" && die "port $port is in use; set REDIS_PORT to a free port"
  launch redis redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --maxmemory "${REDIS_MAXMEMORY:-1gb}" --maxmemory-policy volatile-lru \
    ${socket:+--unixsocket "$socket" --unixsocketperm 700} --daemonize no --dir "$RUN_DIR"
  wait_until 10 "redis on port $port" redis-cli -p "$port" ping
}

# start_broker <build dir> <control port>: sets KAFKA_BROKERS
start_broker() {
  local build_dir=$1 control_port=$2
  port_busy "$control_port" && die "port $control_port is in use; set MOCK_CONTROL_PORT to a free port"
  rm -f "$RUN_DIR/kafka.bootstrap"
  MOCK_TOPICS_FILE="$ROOT/schemas/topics.txt" MOCK_BOOTSTRAP_FILE="$RUN_DIR/kafka.bootstrap" \
    MOCK_CONTROL_PORT=$control_port launch broker "$build_dir/tools/kafka-mock-broker/kafka-mock-broker"
  wait_until 20 "the Kafka broker" test -s "$RUN_DIR/kafka.bootstrap"
  KAFKA_BROKERS=$(cat "$RUN_DIR/kafka.bootstrap")
  export KAFKA_BROKERS
}

# start_service <build dir> <service> <replica> <port>
start_service() {
  local build_dir=$1 service=$2 replica=$3 port=$4
  port_busy "$port" && die "port $port is in use"
  INSTANCE_ID="$service-$replica" HTTP_PORT=$port launch "$service-$replica" "$build_dir/services/$service/$service"
}

healthy() { curl -fsS -o /dev/null --max-time 1 "$1/healthz"; }

# stop_all: stops every process with a pid file under $RUN_DIR, newest layer
# first; a supervisor stops its process and then itself.
stop_all() {
  local f pid child
  for f in "$RUN_DIR"/nginx.pid "$RUN_DIR"/*-*.pid "$RUN_DIR"/broker.pid "$RUN_DIR"/redis.pid; do
    [[ -f $f ]] || continue
    pid=$(cat "$f")
    child=""
    [[ -f ${f%.pid}.child ]] && child=$(cat "${f%.pid}.child")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    if [[ -n $child ]] && kill -0 "$child" 2>/dev/null; then
      kill -KILL "$child" 2>/dev/null || true
    fi
    rm -f "$f" "${f%.pid}.child"
  done
}
