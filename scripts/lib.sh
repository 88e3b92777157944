# Shared by scripts/up, scripts/down, scripts/test and bench/: building,
# starting and stopping the broker, Redis, services and the entry point.
# Every process started here writes a pid file under $RUN_DIR.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=${JOBS:-2}

# Each step with the time since the outermost script started, so a slow run
# shows which step was slow (scripts/test's fuzzing step runs scripts/fuzz,
# whose steps go on counting from the same start).
[[ -n ${PETSTORE_LOG_START:-} ]] || printf -v PETSTORE_LOG_START '%(%s)T' -1
export PETSTORE_LOG_START
log() {
  local now
  printf -v now '%(%s)T' -1
  local elapsed=$((now - PETSTORE_LOG_START))
  printf '\033[1m[%02d:%02d] %s\033[0m\n' $((elapsed / 60)) $((elapsed % 60)) "$*" >&2
}
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The test tree's configuration (scripts/test; bench/compile-times times it):
# AddressSanitizer and UndefinedBehaviorSanitizer over optimised code. -g1
# (line tables) is all ASan and UBSan need for file:line stack traces; full
# debug info made this build 6 min 10 s instead of 4 min 42 s.
ASAN_TREE_FLAGS=(-DPETSTORE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPETSTORE_BUILD_TESTS=ON
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")

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

# reserve_ports <var> [count]: sets <var> to the first of <count> (1 unless
# given) consecutive free loopback ports, taken from below the kernel's
# ephemeral range and held, by a lock under /tmp/petstore-test-ports, until
# this shell exits. A port from bind(0) lies in the ephemeral range, where
# any outgoing connection may take it before the process meant for it binds;
# the lock keeps the suite's parallel tests off each other's ports (the same
# scheme as the C++ tests' free_port()).
reserve_ports() {
  local var=$1 count=${2:-1} low high base i fd ok
  read -r high _ </proc/sys/net/ipv4/ip_local_port_range
  low=$((high - 12000 > 1024 ? high - 12000 : 1024))
  mkdir -p /tmp/petstore-test-ports
  local -a fds
  for _ in {1..500}; do
    base=$((low + (RANDOM * 32768 + RANDOM) % (high - low - count)))
    ok=1 fds=()
    for ((i = 0; i < count; i++)); do
      exec {fd}>>"/tmp/petstore-test-ports/$((base + i))"
      fds+=("$fd")
      if ! flock -n "$fd" || ! python3 -c 'import socket,sys; socket.socket().bind(("127.0.0.1", int(sys.argv[1])))' \
        "$((base + i))" 2>/dev/null; then
        ok=0
        break
      fi
    done
    if ((ok)); then
      printf -v "$var" '%s' "$base"
      return
    fi
    for fd in "${fds[@]}"; do exec {fd}>&-; done
  done
  die "no $count free consecutive ports below $high"
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

# start_redis <port> [unix socket path]: under launch. With REDIS_DATA_DIR
# (scripts/up) it persists with its append-only file there, fsynced every
# second; without (the tests' and benchmarks' Redis) it keeps nothing.
# maxmemory with volatile-lru: under memory pressure Redis evicts only keys
# with an expiry (rate-limit windows, idempotency records, locks), never the
# API keys or read models, which have none.
start_redis() {
  local port=$1 socket=${2:-} persistence=(--appendonly no --dir "$RUN_DIR")
  port_busy "$port" && die "port $port is in use; set REDIS_PORT to a free port"
  if [[ -n ${REDIS_DATA_DIR:-} ]]; then
    mkdir -p "$REDIS_DATA_DIR"
    persistence=(--appendonly yes --appendfsync everysec --dir "$REDIS_DATA_DIR")
  fi
  launch redis redis-server --port "$port" --bind 127.0.0.1 --save '' "${persistence[@]}" \
    --maxmemory "${REDIS_MAXMEMORY:-1gb}" --maxmemory-policy volatile-lru \
    ${socket:+--unixsocket "$socket" --unixsocketperm 700} --daemonize no
  # Loading a large append-only file takes a while; PING answers LOADING until it is done.
  wait_until 300 "redis on port $port" redis_ready "$port"
}

redis_ready() { [[ $(redis-cli -p "$1" ping 2>/dev/null) == PONG ]]; }

# start_broker <build dir> <control port>: sets KAFKA_BROKERS. With
# KAFKA_DATA_DIR (scripts/up) the broker program keeps its log there and
# restores it before it publishes the bootstrap list (docs/local-log.md);
# without (the tests' broker) the log is in memory only.
start_broker() {
  local build_dir=$1 control_port=$2 said="" line pid="" pidfile=$RUN_DIR/broker.pid
  [[ ${SUPERVISE:-0} == 1 ]] && pidfile=$RUN_DIR/broker.child
  port_busy "$control_port" && die "port $control_port is in use; set MOCK_CONTROL_PORT to a free port"
  rm -f "$RUN_DIR/kafka.bootstrap" "$RUN_DIR/broker.child"
  MOCK_TOPICS_FILE="$ROOT/schemas/topics.txt" MOCK_BOOTSTRAP_FILE="$RUN_DIR/kafka.bootstrap" \
    MOCK_DATA_DIR=${KAFKA_DATA_DIR:-} MOCK_CONTROL_PORT=$control_port \
    launch broker "$build_dir/tools/kafka-mock-broker/kafka-mock-broker"
  # A restore of a large log takes a while: show how far it has got.
  local deadline=$((SECONDS + 900))
  until [[ -s $RUN_DIR/kafka.bootstrap ]]; do
    ((SECONDS < deadline)) || die "timed out waiting for the Kafka broker"
    [[ -z $pid && -s $pidfile ]] && pid=$(cat "$pidfile")
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
      tail -n 5 "$RUN_DIR/broker.log" >&2
      die "the Kafka broker stopped while starting (log: $RUN_DIR/broker.log)"
    fi
    line=$(grep -ao 'journal: [0-9]* records restored.*' "$RUN_DIR/broker.log" 2>/dev/null | tail -1 || true)
    if [[ -n $line && $line != "$said" ]]; then
      log "  $line"
      said=$line
    fi
    sleep 0.2
  done
  KAFKA_BROKERS=$(cat "$RUN_DIR/kafka.bootstrap")
  export KAFKA_BROKERS
}

# start_service <build dir> <service> <replica> <port> [unix socket path]:
# the replica serves on 127.0.0.1:<port>, and on the Unix socket as well when
# one is given (bench/run compares an entry point over Unix sockets).
start_service() {
  local build_dir=$1 service=$2 replica=$3 port=$4 socket=${5:-}
  port_busy "$port" && die "port $port is in use"
  INSTANCE_ID="$service-$replica" HTTP_PORT=$port HTTP_UNIX_SOCKET=$socket \
    launch "$service-$replica" "$build_dir/services/$service/$service"
}


# ready <base url>: the replica (or the entry point's pick) answers /readyz
# with 200: its dependencies answer and its read model is whole.
ready() { curl -fsS -o /dev/null --max-time 1 "$1/readyz"; }
# healthy <base url>: /healthz (liveness) answers 200; for builds of commits
# from before /readyz (bench/run's BASELINE_BUILD).
healthy() { curl -fsS -o /dev/null --max-time 1 "$1/healthz"; }

# stop_all: stops every process with a pid file under $RUN_DIR, newest layer
# first; a supervisor stops its process and then itself. Each gets 15 s to
# exit, the broker 60 s: it journals what is left before it exits.
stop_all() {
  local f pid child tenths
  for f in "$RUN_DIR"/nginx.pid "$RUN_DIR"/*-*.pid "$RUN_DIR"/broker.pid "$RUN_DIR"/redis.pid; do
    [[ -f $f ]] || continue
    pid=$(cat "$f")
    child=""
    [[ -f ${f%.pid}.child ]] && child=$(cat "${f%.pid}.child")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      tenths=150
      [[ $f == */broker.pid ]] && tenths=600
      for _ in $(seq "$tenths"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    if [[ -n $child ]] && kill -0 "$child" 2>/dev/null; then
      kill -KILL "$child" 2>/dev/null || true
    fi
    rm -f "$f" "${f%.pid}.child"
  done
}
