#!/usr/bin/env bash
# The deployed stack, as a newcomer gets it: scripts/up (with the tree the
# suite built, on free ports of its own), then the README's "Try it" block,
# taken from README.md and run as written, and after it the "Audit the log"
# block (verify, rebuild, history, as-of); then every pets replica is killed
# with SIGKILL and the test waits for the supervisor to bring them back, seen
# through the entry point; then scripts/down stops it all. Run by ctest
# (scripts/test), which passes the build tree as $1.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TREE=${1:?build tree}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
fail() { echo "FAILED: $*" >&2; exit 1; }

WORK=$(mktemp -d /tmp/petstore-stack.XXXXXX)
export RUN_DIR=$WORK/.run BUILD_DIR=$TREE PETSTORE_SKIP_BUILD=1
export PETSTORE_PORT=$(free_port) REDIS_PORT=$(free_port) MOCK_CONTROL_PORT=$(free_port)
export PETS_BASE_PORT=$(free_port) ORDERS_BASE_PORT=$(free_port) INVENTORY_BASE_PORT=$(free_port)
# Replica i listens on base + i: make sure base + 1 is free too.
for v in PETS_BASE_PORT ORDERS_BASE_PORT INVENTORY_BASE_PORT; do
  while (exec 3<>"/dev/tcp/127.0.0.1/$((${!v} + 1))") 2>/dev/null; do printf -v "$v" '%s' "$(free_port)"; done
done
cleanup() { "$ROOT/scripts/down" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

echo "== scripts/up"
"$ROOT/scripts/up" >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log"; fail "scripts/up"; }
base=http://127.0.0.1:$PETSTORE_PORT

echo "== the README's story"
awk '/^### Try it/ { on = 1 } on && /^```sh$/ { grab = 1; next } grab && /^```$/ { exit } grab { print }' \
  "$ROOT/README.md" >"$WORK/story.sh"
[[ -s $WORK/story.sh ]] || fail "no Try it block in README.md"
sed -i "s|base=http://127.0.0.1:8080|base=$base|" "$WORK/story.sh"
# The auditor's block follows in the same shell (it uses the story's $pet and
# $order), with the tree under test for build/release.
awk '/^### Audit the log/ { on = 1 } on && /^```sh$/ { grab = 1; next } grab && /^```$/ { exit } grab { print }' \
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
grep -q '"dataschema":"schemas/events/pet.created.v2.json"' "$WORK/story.out" || fail "the history lacks a v2 pet.created"
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
  ((SECONDS < deadline)) || fail "the pets service did not come back within 60 s"
  sleep 0.5
done
grep -c "pets-.* exited with status" "$RUN_DIR/supervisor.log" | grep -q '^2$' || { cat "$RUN_DIR/supervisor.log"; fail "supervisor.log"; }
cat "$RUN_DIR/supervisor.log"

echo "== scripts/down"
pids=$(cat "$RUN_DIR"/*.pid "$RUN_DIR"/*.child 2>/dev/null)
"$ROOT/scripts/down" >/dev/null
for pid in $pids; do
  ! kill -0 "$pid" 2>/dev/null || fail "process $pid still running after scripts/down"
done
! (exec 3<>"/dev/tcp/127.0.0.1/$PETSTORE_PORT") 2>/dev/null || fail "the entry point still answers"
echo "1 passed, 0 failed"
