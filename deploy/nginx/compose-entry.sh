#!/bin/bash
# The entry point's process in compose.yaml: nginx, with one upstream per
# service listing the addresses Docker's DNS gives for its replicas. The list
# is looked up again every two seconds, and a scale-up or scale-down rewrites
# it and reloads nginx (gracefully: requests under way finish), so the entry
# point follows `docker compose up --scale` without a restart.
set -euo pipefail
services=(pets:8081 orders:8082 inventory:8083)
upstreams=/run/petstore/upstreams.conf

render() {
  local entry name port addresses address
  for entry in "${services[@]}"; do
    name=${entry%%:*} port=${entry##*:}
    addresses=$(getent ahostsv4 "$name" | awk '{print $1}' | sort -u || true)
    printf 'upstream %s {\n' "$name"
    if [[ -z $addresses ]]; then
      # No replica now: nginx needs a server; this one is never tried.
      printf '  server 127.0.0.1:%s down;\n' "$port"
    fi
    for address in $addresses; do
      printf '  server %s:%s max_fails=1 fail_timeout=2s;\n' "$address" "$port"
    done
    # Below the replicas' HTTP_KEEPALIVE_TIMEOUT_S (5 s): nginx lets an idle
    # connection go before the replica closes it.
    printf '  keepalive 32;\n  keepalive_timeout 4s;\n}\n'
  done
}

render >"$upstreams"
nginx -c /etc/nginx/petstore/compose.conf -g 'daemon off;' &
nginx_pid=$!
trap 'kill -QUIT $nginx_pid 2>/dev/null; wait $nginx_pid; exit 0' TERM INT
while kill -0 "$nginx_pid" 2>/dev/null; do
  sleep 2 &
  wait $! || true
  next=$(render)
  if [[ $next != "$(cat "$upstreams")" ]]; then
    printf '%s\n' "$next" >"$upstreams"
    echo "compose-entry: the replicas changed; reloading nginx" >&2
    nginx -c /etc/nginx/petstore/compose.conf -s reload || true
  fi
done
wait "$nginx_pid"
