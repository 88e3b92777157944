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

# The store's services, from services/services.txt: SERVICES, their names
# in order, and SERVICE_PORT[<name>], the local port of its first replica
# (replica i listens on that plus i; <NAME>_BASE_PORT overrides it).
declare -ga SERVICES=()
declare -gA SERVICE_PORT=()
while read -r name port; do
  [[ -z $name || $name == \#* ]] && continue
  SERVICES+=("$name")
  override=${name^^}_BASE_PORT
  SERVICE_PORT[$name]=${!override:-$port}
done <"$ROOT/services/services.txt"
unset name port override

# fill_placeholders <NAME=text>...: stdin to stdout, each @NAME@ replaced by
# its text (the templates' @PETS_SERVERS@ and the like).
fill_placeholders() {
  local text pair
  text=$(cat)
  for pair; do
    text=${text//"@${pair%%=*}@"/"${pair#*=}"}
  done
  printf '%s\n' "$text"
}

# nginx_upstreams <name of an array: each service's server lines>: the
# entry point's upstreams (deploy/nginx/upstream.conf.template), one a
# service of SERVICES, and "any", every replica of them all, for the
# platform's routes (deploy/nginx/routes.conf).
nginx_upstreams() {
  local -n lines=$1
  local service all=""
  for service in "${SERVICES[@]}"; do
    fill_placeholders "NAME=$service" "SERVERS=${lines[$service]%$'\n'}" <"$ROOT/deploy/nginx/upstream.conf.template"
    all+=${lines[$service]%$'\n'}$'\n'
  done
  fill_placeholders "NAME=any" "SERVERS=${all%$'\n'}" <"$ROOT/deploy/nginx/upstream.conf.template"
}

# nginx_conf_dir <dir>: readies <dir> to hold a rendered entry point
# configuration: routes.conf includes each service's paths
# (services/<name>/deploy/nginx.map) relative to the main file's folder.
nginx_conf_dir() {
  mkdir -p "$1/nginx-tmp"
  ln -sfn "$ROOT/services" "$1/services"
}

# scrape_job <service> <"host:port">...: the local Prometheus configuration's
# job for a service's replicas (deploy/prometheus/local.yml.template).
scrape_job() {
  local name=$1 targets
  shift
  targets=$(printf '"%s", ' "$@")
  printf '  - job_name: %s\n    static_configs: [{targets: [%s]}]\n' "$name" "${targets%, }"
}

# The test tree's configuration (scripts/test; bench/compile-times times it):
# AddressSanitizer and UndefinedBehaviorSanitizer over optimised code. -g1
# (line tables) is all ASan and UBSan need for file:line stack traces; full
# debug info makes this build much longer.
ASAN_TREE_FLAGS=(-DPETSTORE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPETSTORE_BUILD_TESTS=ON
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")

# build <dir> [cmake args...]: the compiler's output is shown only on
# failure; meanwhile a line for every tenth of the build done.
build() {
  local dir=$1; shift
  mkdir -p "$dir"
  if ! { cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir/build.log" 2>&1 &&
    cmake --build "$dir" -j"$JOBS" 2>&1 | tee -a "$dir/build.log" | build_progress; }; then
    grep -E 'error|Error' "$dir/build.log" | head -40 >&2
    die "build in $dir failed (full log: $dir/build.log)"
  fi
}

# docs_site <run dir>: lays out the API page the entry point serves at
# /docs (deploy/docs/index.html, Swagger UI's bundle from the npm registry,
# schemas/openapi.yaml) and sets SITE_DIR to the folder that holds it as
# docs/. The bundle is fetched once (deploy/docs/package-lock.json) into
# deploy/docs/node_modules; nothing is fetched when the page is served.
# The folder is in /tmp, one per run dir, readable by all: nginx's workers
# run as nobody when nginx starts as root, and a run dir under a private
# home or a mktemp folder is out of their reach.
docs_site() {
  local src=$ROOT/deploy/docs dist=$ROOT/deploy/docs/node_modules/swagger-ui-dist
  if ! cmp -s "$src/package-lock.json" "$src/node_modules/.petstore-lock" 2>/dev/null; then
    log "Fetching Swagger UI from the npm registry (deploy/docs)"
    (cd "$src" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) ||
      die "npm ci in $src failed"
    cp "$src/package-lock.json" "$src/node_modules/.petstore-lock"
  fi
  SITE_DIR=/tmp/petstore-site-$(id -u)-$(printf '%s' "$1" | md5sum | cut -c1-12)
  mkdir -p "$SITE_DIR/docs"
  cp "$src/index.html" "$dist/swagger-ui-bundle.js" "$dist/swagger-ui.css" "$ROOT/schemas/openapi.yaml" \
    "$SITE_DIR/docs/"
  chmod -R a+rX "$SITE_DIR"
}

# schemathesis_venv: makes (once per requirements file) a virtual
# environment of Debian's Python under build/ with the pinned schemathesis
# of tests/contract/schemathesis/requirements.txt, and prints its `st`
# command, which the suite's OpenAPI fuzzing test reads from
# PETSTORE_SCHEMATHESIS (tests/integration/store/openapi_fuzz_test.cpp).
schemathesis_venv() {
  local venv=$ROOT/build/schemathesis-venv req=$ROOT/tests/contract/schemathesis/requirements.txt
  if ! cmp -s "$req" "$venv/.petstore-requirements" 2>/dev/null; then
    log "Installing schemathesis into $venv (PyPI, pinned)"
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" || die "python3 -m venv failed (Debian's python3-venv)"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >&2 || die "pip install -r $req failed"
    cp "$req" "$venv/.petstore-requirements"
  fi
  printf '%s\n' "$venv/bin/st"
}

# build_progress: reads a build's output (make's "[ 45%]" or ninja's
# "[12/345]") and logs how far it is, at each tenth.
build_progress() {
  local line pct last=0
  while IFS= read -r line; do
    if [[ $line =~ ^\[\ *([0-9]+)%\] ]]; then
      pct=${BASH_REMATCH[1]}
    elif [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
      pct=$((BASH_REMATCH[1] * 100 / BASH_REMATCH[2]))
    else
      continue
    fi
    if ((pct / 10 * 10 > last)); then
      last=$((pct / 10 * 10))
      log "  built $last%"
    fi
  done
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

# The project's Kafka version: compose.yaml's x-kafka-image, its one place.
kafka_version() {
  sed -n 's|^    args: {KAFKA_VERSION: \([0-9][0-9.]*\)}$|\1|p' "$ROOT/compose.yaml"
}

# kafka_libs: sets KAFKA_CLASSPATH to Apache Kafka's jars of that version,
# fetched once from Maven Central by deploy/kafka/pom.xml into
# build/kafka-<version> (ignored by git; Maven's own cache is ~/.m2).
kafka_libs() {
  local version dir
  version=$(kafka_version)
  [[ -n $version ]] || die "compose.yaml names no Kafka version (x-kafka-image)"
  dir=$ROOT/build/kafka-$version
  mkdir -p "$ROOT/build"
  (
    flock 9
    [[ -f $dir/complete ]] && exit 0
    rm -rf "$dir"
    mvn -B -q -f "$ROOT/deploy/kafka/pom.xml" dependency:copy-dependencies -Dkafka.version="$version" \
      -DoutputDirectory="$dir/libs" >"$ROOT/build/kafka-$version.log" 2>&1 ||
      { tail -n 20 "$ROOT/build/kafka-$version.log" >&2; exit 1; }
    touch "$dir/complete"
  ) 9>"$ROOT/build/.kafka-libs.lock" || die "fetching Apache Kafka $version with Maven failed"
  KAFKA_CLASSPATH="$dir/libs/*"
}

# kafka_tool <class> [args...]: one of Kafka's own command-line tools (topic
# creation, storage formatting, leader election), warnings only. A short-
# lived JVM: the first compiler tier only, a small heap.
kafka_tool() {
  java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$KAFKA_CLASSPATH" \
    -Dlog4j.configuration="file:$ROOT/deploy/kafka/tools-log4j.properties" "$@"
}

# start_kafka <name> <nodes> [data dir]: a KRaft cluster of <nodes> combined
# broker-and-controller nodes of Apache Kafka on loopback, on free ports,
# each under launch as <name><i> (log $RUN_DIR/<name><i>.log). Sets
# KAFKA_BROKERS to its bootstrap list and writes $RUN_DIR/<name>/node<i>.start,
# a command that starts node <i> again on its data (the fault tests kill and
# restart nodes). Each node keeps its log in <data dir>/node<i> (default:
# $RUN_DIR/<name>/data); a directory formatted before is started as it is,
# so scripts/up keeps every record across scripts/down. With three nodes or
# more, every topic is replicated three times and needs two in sync to
# accept a write (as compose.yaml's cluster); with one, once; and
# KAFKA_LINK_BROKERS lists the nodes' LINK listeners as advertised (the
# proxies' ports), KAFKA_LINK_LISTENERS where they listen, in node order.
# KAFKA_HEAP sets each node's heap (default 512m alone, 384m in a cluster);
# KAFKA_PORT, the first node's port (its controller's is the next one, then
# the next node's), instead of free ones.
start_kafka() {
  local name=$1 nodes=$2 data=${3:-$RUN_DIR/$1/data} first_port i voters="" rf=1 isr=1 cluster_id
  local dir=$RUN_DIR/$name heap=${KAFKA_HEAP:-}
  kafka_libs
  ((nodes >= 3)) && rf=3 isr=2
  [[ -n $heap ]] || heap=$((nodes >= 3 ? 384 : 512))m
  mkdir -p "$dir" "$data"
  if [[ -n ${KAFKA_PORT:-} ]]; then
    first_port=$KAFKA_PORT
    for ((i = 0; i < 2 * nodes; i++)); do
      port_busy $((first_port + i)) && die "port $((first_port + i)) is in use; set KAFKA_PORT to a free one"
    done
  else
    reserve_ports first_port $((2 * nodes))
  fi
  # A cluster's nodes also listen on a LINK listener each, advertised on
  # the port after it, where nothing listens until a test puts a proxy
  # there (tests/integration/support/link_proxy.h): a client bootstrapped
  # from KAFKA_LINK_BROKERS reaches every node through the proxies, so a
  # test can delay or cut that client's links alone.
  local link_port="" link_listeners=""
  KAFKA_LINK_BROKERS=""
  ((nodes >= 3)) && reserve_ports link_port $((2 * nodes))
  for ((i = 1; i <= nodes; i++)); do voters+="${voters:+,}$i@127.0.0.1:$((first_port + 2 * i - 1))"; done
  # One cluster id for the data directory, kept beside it: a node refuses
  # storage formatted for another cluster.
  # (Base64url of 16 random bytes, as Kafka's own random-uuid; like it, never
  # with a leading "-", which the storage tool would take for an option.)
  while [[ ! -s $data/cluster-id || $(head -c 1 "$data/cluster-id") == - ]]; do
    head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' >"$data/cluster-id"
  done
  cluster_id=$(cat "$data/cluster-id")
  KAFKA_BROKERS=""
  local -a formats=()
  for ((i = 1; i <= nodes; i++)); do
    local port=$((first_port + 2 * i - 2)) props=$dir/node$i.properties listeners advertised protocols
    KAFKA_BROKERS+="${KAFKA_BROKERS:+,}127.0.0.1:$port"
    listeners="PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$((port + 1))"
    advertised="PLAINTEXT://127.0.0.1:$port"
    protocols="CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"
    if [[ -n $link_port ]]; then
      local link=$((link_port + 2 * i - 2))
      listeners+=",LINK://127.0.0.1:$link"
      advertised+=",LINK://127.0.0.1:$((link + 1))"
      protocols+=",LINK:PLAINTEXT"
      link_listeners+="${link_listeners:+,}127.0.0.1:$link"
      KAFKA_LINK_BROKERS+="${KAFKA_LINK_BROKERS:+,}127.0.0.1:$((link + 1))"
    fi
    cat >"$props" <<PROPS
process.roles=broker,controller
node.id=$i
controller.quorum.voters=$voters
listeners=$listeners
advertised.listeners=$advertised
listener.security.protocol.map=$protocols
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$data/node$i
auto.create.topics.enable=false
default.replication.factor=$rf
min.insync.replicas=$isr
unclean.leader.election.enable=false
offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=12
transaction.state.log.replication.factor=$rf
transaction.state.log.min.isr=$isr
transaction.state.log.num.partitions=12
log.retention.ms=-1
log.retention.bytes=-1
group.initial.rebalance.delay.ms=0
PROPS
    # In a cluster, a lost node is fenced (its partitions led elsewhere)
    # after 6 s without a heartbeat instead of 9 s, so the fault tests'
    # failovers stay short.
    ((nodes >= 3)) && printf '%s\n' broker.heartbeat.interval.ms=500 broker.session.timeout.ms=6000 >>"$props"
    if [[ ! -f $data/node$i/meta.properties ]]; then
      kafka_tool kafka.tools.StorageTool format --ignore-formatted -t "$cluster_id" -c "$props" >/dev/null &
      formats+=("$!")
    fi
  done
  for p in "${formats[@]}"; do wait "$p" || die "formatting the Kafka storage in $data failed"; done
  for ((i = 1; i <= nodes; i++)); do
    # G1 with short pauses, as Kafka's own start script runs it.
    printf '%s\n' "#!/usr/bin/env bash" \
      "exec java -Xms${heap} -Xmx${heap} -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExplicitGCInvokesConcurrent \\" \
      "  -Djava.awt.headless=true -Dlog4j.configuration=file:$ROOT/deploy/kafka/log4j.properties \\" \
      "  -cp '$KAFKA_CLASSPATH' kafka.Kafka $dir/node$i.properties" >"$dir/node$i.cmd"
    chmod +x "$dir/node$i.cmd"
    launch "$name$i" "$dir/node$i.cmd"
    # The fault tests' restart of a node they killed: the same command, its pid where stop_all finds it.
    printf '%s\n' "#!/usr/bin/env bash" "nohup $dir/node$i.cmd >>$RUN_DIR/$name$i.log 2>&1 &" \
      "echo \$! >$RUN_DIR/$name$i.pid" >"$dir/node$i.start"
    chmod +x "$dir/node$i.start"
  done
  # Up once every node is a broker the cluster's metadata lists.
  local deadline=$((SECONDS + 120)) seen
  while :; do
    seen=$(kcat -b "$KAFKA_BROKERS" -L -m 2 2>/dev/null | sed -n 's/^ *\([0-9]*\) brokers:$/\1/p' || true)
    [[ ${seen:-0} -ge $nodes ]] && break
    for ((i = 1; i <= nodes; i++)); do
      local pidfile=$RUN_DIR/$name$i.pid
      [[ ${SUPERVISE:-0} == 1 ]] && pidfile=$RUN_DIR/$name$i.child
      if [[ -s $pidfile ]] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
        tail -n 20 "$RUN_DIR/$name$i.log" >&2
        die "Kafka node $i stopped while starting (log: $RUN_DIR/$name$i.log)"
      fi
    done
    ((SECONDS < deadline)) || die "timed out waiting for Kafka ($KAFKA_BROKERS; logs: $RUN_DIR/$name*.log)"
    sleep 0.2
  done
  # Not exported: no service reads them (scripts/test-stack.sh passes
  # them on to the tests under names of their own).
  KAFKA_LINK_LISTENERS=$link_listeners
  export KAFKA_BROKERS
}

# create_topic <bootstrap> <topic> <partitions> <replication factor>: a
# topic kept for ever, through Kafka's own admin tool (as compose.yaml's
# kafka-topics job); one that exists is left as it is.
create_topic() {
  kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$1" --create --if-not-exists \
    --topic "$2" --partitions "$3" --replication-factor "$4" \
    --config retention.ms=-1 --config retention.bytes=-1 >/dev/null
}

# create_topics <bootstrap> <replication factor>: the topics of
# schemas/topics.txt, with their partitions. Side by side: each is a JVM.
create_topics() {
  local brokers=$1 rf=$2 topic partitions pids=()
  while read -r topic partitions; do
    [[ -z $topic || $topic == \#* ]] && continue
    create_topic "$brokers" "$topic" "$partitions" "$rf" &
    pids+=("$!")
  done <"$ROOT/schemas/topics.txt"
  for p in "${pids[@]}"; do wait "$p" || die "creating the topics of schemas/topics.txt on $brokers failed"; done
  # Created is not yet served: a service that asks for a topic before its
  # broker has applied it is told it does not exist, and exits.
  while read -r topic partitions; do
    [[ -z $topic || $topic == \#* ]] && continue
    wait_until 30 "topic $topic on $brokers" topic_ready "$brokers" "$topic" "$partitions"
  done <"$ROOT/schemas/topics.txt"
}

# topic_ready <bootstrap> <topic> <partitions>: the cluster's metadata lists
# every partition of the topic with a leader.
topic_ready() {
  [[ $(kcat -b "$1" -L -t "$2" -m 5 2>/dev/null | grep -c 'partition [0-9]*, leader [0-9]') == "$3" ]]
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
# first: the entry point, then the services and tools, then the Kafka nodes,
# then Redis. The processes of a layer stop side by side (the nodes of a
# cluster together: one left alone waits for a quorum that is gone); a
# supervisor stops its process and then itself. A layer gets 15 s, the
# Kafka nodes 60 s to close their logs cleanly, before SIGKILL.
stop_all() {
  local f
  local -a services=() nodes=()
  for f in "$RUN_DIR"/*.pid; do
    [[ -f $f ]] || continue
    case ${f##*/} in
      nginx.pid | redis.pid) ;;
      kafka*.pid | cluster*.pid) nodes+=("$f") ;;
      *) services+=("$f") ;;
    esac
  done
  stop_layer 150 "$RUN_DIR"/nginx.pid
  stop_layer 150 "${services[@]}"
  stop_layer 600 "${nodes[@]}"
  stop_layer 150 "$RUN_DIR"/redis.pid
}

# stop_layer <tenths of a second> <pid file...>
stop_layer() {
  local tenths=$1 f pid alive
  shift
  local -a pids=()
  for f in "$@"; do
    [[ -f $f ]] || continue
    pids+=("$(cat "$f")")
    [[ -f ${f%.pid}.child ]] && pids+=("$(cat "${f%.pid}.child")")
  done
  for pid in "${pids[@]}"; do
    # A process a fault test left paused must run to stop.
    kill -CONT "$pid" 2>/dev/null || true
    kill -TERM "$pid" 2>/dev/null || true
  done
  for _ in $(seq "$tenths"); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for f in "$@"; do rm -f "$f" "${f%.pid}.child"; done
}
