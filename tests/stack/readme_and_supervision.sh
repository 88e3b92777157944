#!/usr/bin/env bash
# The deployed stack, as a newcomer gets it: scripts/up --with-prometheus
# (with the tree the suite built, on free ports of its own), whose build
# and starts scripts/status then reports, then the README's "Try it" block,
# taken from README.md and run as written, and after it the "Audit the log"
# block (verify, rebuild, history, as-of); then every pets replica is killed
# with SIGKILL and the test waits for the supervisor to bring them back, seen
# through the entry point (over loopback TCP to the replicas); then
# scripts/down and scripts/up again, after
# which a pet, its category, stock and order, and the API key are all still
# there and verify passes over the restored log; then scripts/down stops it
# all, and scripts/delete-data (which refuses while the stack runs) deletes
# the data. Run by ctest (scripts/test), which passes the build tree as $1.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TREE=${1:?build tree}
source "$ROOT/scripts/lib.sh"  # reserve_ports, SERVICES
fail() { echo "FAILED: $*" >&2; exit 1; }
# What the stack's processes said, for a failure that happened out of sight.
show_logs() {
  local f
  for f in "$RUN_DIR"/supervisor.log "$RUN_DIR"/*.log; do
    [[ -s $f ]] || continue
    echo "---- ${f##*/} (last 40 lines)"
    tail -n 40 "$f"
  done
}

WORK=$(mktemp -d /tmp/petstore-stack.XXXXXX)
export RUN_DIR=$WORK/.run DATA_DIR=$WORK/.data BUILD_DIR=$TREE PETSTORE_SKIP_BUILD=1
reserve_ports PETSTORE_PORT; reserve_ports REDIS_PORT; reserve_ports KAFKA_PORT 2; reserve_ports PROMETHEUS_PORT
export PETSTORE_PORT REDIS_PORT KAFKA_PORT PROMETHEUS_PORT
# Replica i of a service listens on <SERVICE>_BASE_PORT + i: two consecutive ports each.
for service in "${SERVICES[@]}"; do
  reserve_ports "${service^^}_BASE_PORT" 2
  export "${service^^}_BASE_PORT"
done
cleanup() { "$ROOT/scripts/down" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

echo "== scripts/up --with-prometheus"
"$ROOT/scripts/up" --with-prometheus >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log"; show_logs; fail "scripts/up"; }
base=http://127.0.0.1:$PETSTORE_PORT
for step in "Starting pets replica 1" "Starting the entry point" "Starting Prometheus"; do
  grep -q "$step" "$WORK/up.log" || { cat "$WORK/up.log"; fail "scripts/up did not report: $step"; }
done
echo "== scripts/status"
"$ROOT/scripts/status" >"$WORK/status.txt" 2>&1 || { cat "$WORK/status.txt"; fail "scripts/status"; }
cat "$WORK/status.txt"
replicas=()
for service in "${SERVICES[@]}"; do replicas+=("$service-0" "$service-1"); done
for component in redis kafka "${replicas[@]}" entry-point prometheus; do
  grep -Eq "^$component +[^ ]+ +ok( |$)" "$WORK/status.txt" || fail "scripts/status: $component is not ok"
done
# The entry point reaches every replica over loopback TCP, where each
# response is one segment (docs/http-server.md), never over a Unix socket
# (each replica stands in its service's upstream and in "any").
if [[ $(grep -o 'server 127\.0\.0\.1:[0-9]* ' "$RUN_DIR/nginx.conf" | sort -u | wc -l) != "${#replicas[@]}" ]] ||
  grep -q 'server unix:' "$RUN_DIR/nginx.conf"; then
  cat "$RUN_DIR/nginx.conf"
  fail "the entry point does not reach the ${#replicas[@]} replicas over TCP"
fi
# The API page the README names, from the stack's own files.
[[ $(curl -s -o /dev/null -w '%{http_code} %{content_type}' "$base/docs/") == "200 text/html" ]] ||
  fail "the entry point does not serve the API page at /docs/"
cmp -s <(curl -s "$base/docs/openapi.yaml") "$ROOT/schemas/openapi.yaml" ||
  fail "/docs/openapi.yaml is not schemas/openapi.yaml"

echo "== the README's story"
awk '/^## Try it/ { on = 1 } on && /^```sh$/ { grab = 1; next } grab && /^```$/ { exit } grab { print }' \
  "$ROOT/README.md" >"$WORK/story.sh"
[[ -s $WORK/story.sh ]] || fail "no Try it block in README.md"
sed -i "s|base=http://127.0.0.1:8080|base=$base|" "$WORK/story.sh"
# The auditor's block follows in the same shell (it uses the story's $pet and
# $order), with the tree under test for build/release.
awk '/^## Audit the log/ { on = 1 } on && /^```sh$/ { grab = 1; next } grab && /^```$/ { exit } grab { print }' \
  "$ROOT/README.md" >"$WORK/audit.sh"
[[ -s $WORK/audit.sh ]] || fail "no Audit the log block in README.md"
sed -i "s|build/release/|$TREE/|" "$WORK/audit.sh"
{ cat "$WORK/story.sh"; echo 'echo ==audit=='; cat "$WORK/audit.sh"; } >"$WORK/both.sh"
# The suite's own broker is in KAFKA_BROKERS, which the audit would prefer
# to the stack's .run/kafka.bootstrap: a newcomer's shell has neither.
(cd "$WORK" && env -u KAFKA_BROKERS bash -euo pipefail both.sh) >"$WORK/both.out" 2>&1 || { cat "$WORK/both.out"; fail "the story stopped"; }
sed '/^==audit==$/,$d' "$WORK/both.out" >"$WORK/story.out"
sed '1,/^==audit==$/d' "$WORK/both.out" >"$WORK/audit.out"
cat "$WORK/both.out"
grep -q '"status":"reserved"' "$WORK/story.out" || fail "the order was not reserved"
grep -q '"status":"completed"' "$WORK/story.out" || fail "the order was not completed"
grep -q '"quantity":1' "$WORK/story.out" || fail "the stock is not 1 after selling 2 of 3"
! grep -q '"code":' "$WORK/story.out" || fail "an Error in the story"
grep -qx 204 "$WORK/story.out" || fail "the delete did not answer 204"
grep -q '"type":"io.petstore.pet.deleted"' "$WORK/story.out" || fail "GET /pets/{id}/history lacks the deletion"
grep -Eq '"dataschema":"https://petstore.example/schemas/events/pet.created.v[0-9]+.json"' "$WORK/story.out" ||
  fail "the history lacks pet.created at a later schema version, with the description"
grep -q '"type":"io.petstore.inventory.consumed"' "$WORK/story.out" || fail "the stock ledger's history lacks the sale"
grep -q '^0 violations' "$WORK/audit.out" || fail "verify found violations"
grep -q '^0 differences' "$WORK/audit.out" || fail "rebuild found differences"
grep -q 'io.petstore.pet.deleted' "$WORK/audit.out" || fail "the pet's history lacks its deletion"
grep -q '"type":"io.petstore.order.completed"' "$WORK/audit.out" || fail "the order's history lacks its completion"
grep -q '"quantity":1,"reserved":0' "$WORK/audit.out" || fail "as-of does not show the stock left"

echo "== SIGKILL every pets replica; the supervisor restarts them"
key=$(cat "$RUN_DIR/api-key")
for f in "$RUN_DIR"/pets-*.child; do kill -KILL "$(cat "$f")"; done
sleep 0.5
deadline=$((SECONDS + 60))
until [[ $(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" "$base/pets?limit=1") == 200 ]]; do
  ((SECONDS < deadline)) || { show_logs; fail "the pets service did not come back within 60 s"; }
  sleep 0.5
done
# Both replicas, not just the first one back: the next step writes, and
# nginx does not retry a POST on the other replica.
for port in "$PETS_BASE_PORT" "$((PETS_BASE_PORT + 1))"; do
  until [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz") == 200 ]]; do
    ((SECONDS < deadline)) || { show_logs; fail "pets replica on port $port is not ready within 60 s"; }
    sleep 0.5
  done
done
sleep 2  # nginx's fail_timeout for a replica it found down (scripts/up's nginx.conf)
grep -c "pets-.* exited with status" "$RUN_DIR/supervisor.log" | grep -q '^2$' || { cat "$RUN_DIR/supervisor.log"; fail "supervisor.log"; }
cat "$RUN_DIR/supervisor.log"

echo "== scripts/down, then scripts/up: the pets, orders and keys are still there"
# The story and the polling above spent much of the Pro key's minute; this
# step gets an enterprise key of its own, issued through the admin API, and
# both keys must survive the restart.
admin="Authorization: Bearer $(cat "$RUN_DIR/admin-token")"
issued=$(curl -s -X POST "$base/admin/keys" -H "$admin" -H 'Content-Type: application/json' \
  -d '{"plan":"enterprise","name":"restart-test","limits":{"perMinute":100000,"perDay":1000000}}')
key=$(echo "$issued" | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])') || fail "issuing a key: $issued"
api() { curl -s -H "X-API-Key: $key" "$@"; }
json_id() { python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }
# wait_for <what> <command...>: polls for 30 s at most.
wait_for() {
  local what=$1 deadline=$((SECONDS + 30))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || { show_logs; ! declare -F snapshot >/dev/null || snapshot; fail "timed out waiting for $what"; }
    sleep 0.2
  done
}
cat_id=$(api -X POST "$base/categories" -H 'Content-Type: application/json' -d '{"name":"Keepers"}' | json_id)
kept=$(api -X POST "$base/pets" -H 'Content-Type: application/json' -d "{\"name\":\"Kept\",\"categoryId\":$cat_id}" | json_id)
stock_known() { [[ $(api -o /dev/null -w '%{http_code}' "$base/store/inventory/items/$kept") == 200 ]]; }
wait_for "the pet's stock entry" stock_known
api -X PUT "$base/store/inventory/items/$kept" -H 'Content-Type: application/json' -d '{"quantity":5}' >/dev/null
kept_order=$(api -X POST "$base/store/orders" -H 'Content-Type: application/json' -d "{\"petId\":$kept,\"quantity\":2}" | json_id)
snapshot() {
  api "$base/pets/$kept"; echo
  api "$base/categories/$cat_id"; echo
  api "$base/store/orders/$kept_order"; echo
  api "$base/store/inventory/items/$kept"; echo
  api "$base/pets/$kept/history?limit=50"; echo
}
# (Not `snapshot | grep -q`: grep stops reading at the first match, and
# pipefail then sees the writer's SIGPIPE.)
reserved() { [[ $(snapshot) == *'"status":"reserved"'* ]]; }
wait_for "the order's reservation" reserved
snapshot >"$WORK/before-restart"
cp "$RUN_DIR/api-key" "$WORK/key-before"
"$ROOT/scripts/down" >/dev/null
[[ -f $WORK/.data/kafka/node1/meta.properties ]] || fail "scripts/down left no Kafka log in $WORK/.data"
# A clean stop: the node's next start need not recover its logs.
grep -q 'shut down completed' "$RUN_DIR/kafka1.log" || { tail "$RUN_DIR/kafka1.log"; fail "Kafka did not shut down cleanly"; }
"$ROOT/scripts/up" >"$WORK/up2.log" 2>&1 || { cat "$WORK/up2.log"; show_logs; fail "scripts/up after scripts/down"; }
cmp -s "$RUN_DIR/api-key" "$WORK/key-before" || fail "scripts/up replaced the key it had issued: the old one no longer works"
# (It may be out of budget after the polling above: 429 is fine, 401 is not.)
[[ $(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $(cat "$RUN_DIR/api-key")" "$base/pets?limit=1") != 401 ]] ||
  fail "the key scripts/up issued before the restart is unknown after it"
snapshot >"$WORK/after-restart"
diff "$WORK/before-restart" "$WORK/after-restart" || fail "the store changed across scripts/down and scripts/up"
grep -q '"name":"Kept"' "$WORK/after-restart" || fail "no pet in the snapshot"
(cd "$WORK" && env -u KAFKA_BROKERS "$TREE/tools/petstore-audit/petstore-audit" verify) >"$WORK/verify2.out" 2>&1 ||
  { cat "$WORK/verify2.out"; fail "verify after the restart"; }
grep '^0 violations' "$WORK/verify2.out"

echo "== scripts/delete-data refuses while the stack runs"
! "$ROOT/scripts/delete-data" --yes >/dev/null 2>&1 || fail "scripts/delete-data ran while the stack was up"
[[ -f $WORK/.data/kafka/node1/meta.properties ]] || fail "scripts/delete-data deleted the data of a running stack"

echo "== scripts/down"
pids=$(cat "$RUN_DIR"/*.pid "$RUN_DIR"/*.child 2>/dev/null)
"$ROOT/scripts/down" >/dev/null
for pid in $pids; do
  ! kill -0 "$pid" 2>/dev/null || fail "process $pid still running after scripts/down"
done
! (exec 3<>"/dev/tcp/127.0.0.1/$PETSTORE_PORT") 2>/dev/null || fail "the entry point still answers"

echo "== scripts/delete-data, once it is down"
"$ROOT/scripts/delete-data" --yes </dev/null
[[ ! -e $WORK/.data ]] || fail "scripts/delete-data left $WORK/.data"
echo "1 passed, 0 failed"
