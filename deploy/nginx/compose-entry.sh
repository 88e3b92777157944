#!/bin/bash
# The entry point's process in compose.yaml: nginx, with one upstream per
# service listing the addresses Docker's DNS gives for its replicas. The list
# is looked up again every two seconds, and a scale-up or scale-down rewrites
# it and reloads nginx (gracefully: requests under way finish), so the entry
# point follows `docker compose up --scale` without a restart.
set -euo pipefail
# The services: services/services.txt, in the services' folders compose.yaml
# mounts; each listens on one port, the same in every container of compose.
services_dir=/etc/nginx/petstore-services
port=8080
services=()
while read -r name _; do
  if [[ $name =~ ^[a-z] ]]; then services+=("$name"); fi
done <"$services_dir/services.txt"
upstreams=/run/petstore/upstreams.conf

template=/etc/nginx/petstore/upstream.conf.template
conf=/run/petstore/nginx.conf

# upstream <name> <server lines>: one upstream block, from the template the
# local entry point's upstreams are made from too.
upstream() {
  local block
  block=$(<"$template")
  block=${block//@NAME@/$1}
  printf '%s\n' "${block//@SERVERS@/$2}"
}

# Each service's upstream, and "any": every replica of them all, for the
# platform's routes (routes.conf).
render() {
  local name addresses address lines every=""
  for name in "${services[@]}"; do
    addresses=$(getent ahostsv4 "$name" | awk '{print $1}' | sort -u || true)
    lines=""
    for address in $addresses; do
      lines+="    server $address:$port max_fails=1 fail_timeout=2s;"$'\n'
    done
    every+=$lines
    # No replica now: nginx needs a server; this one is never tried.
    [[ -n $lines ]] || lines="    server 127.0.0.1:$port down;"
    upstream "$name" "${lines%$'\n'}"
  done
  [[ -n $every ]] || every="    server 127.0.0.1:1 down;"
  upstream any "${every%$'\n'}"
}

# The main file in a folder of its own, beside a link to the services'
# folders (compose.yaml mounts them), where routes.conf finds each
# service's paths.
cp /etc/nginx/petstore/compose.conf "$conf"
ln -sfn "$services_dir" /run/petstore/services
render >"$upstreams"
nginx -c "$conf" -g 'daemon off;' &
nginx_pid=$!
trap 'kill -QUIT $nginx_pid 2>/dev/null; wait $nginx_pid; exit 0' TERM INT
while kill -0 "$nginx_pid" 2>/dev/null; do
  sleep 2 &
  wait $! || true
  next=$(render)
  if [[ $next != "$(cat "$upstreams")" ]]; then
    printf '%s\n' "$next" >"$upstreams"
    echo "compose-entry: the replicas changed; reloading nginx" >&2
    nginx -c "$conf" -s reload || true
  fi
done
wait "$nginx_pid"
