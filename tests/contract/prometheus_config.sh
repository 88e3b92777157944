#!/usr/bin/env bash
# deploy/prometheus: Prometheus' own promtool accepts the alerting rules,
# compose's configuration as compose-entry.sh renders it (a job a service),
# and the local template as scripts/up renders it;
# and each rule names only metric families the services serve.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/scripts/lib.sh"  # SERVICES, scrape_job, fill_placeholders
WORK=$(mktemp -d /tmp/petstore-prometheus.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
command -v promtool >/dev/null || { echo "promtool is missing: scripts/install-deps"; exit 1; }
cd "$ROOT/deploy/prometheus"
promtool check rules rules.yml
PROMETHEUS_CONF_DIR="$ROOT/deploy/prometheus" PETSTORE_SERVICES_FILE="$ROOT/services/services.txt" \
  bash compose-entry.sh --print >"$WORK/compose.yml"
for service in "${SERVICES[@]}"; do
  grep -q "job_name: $service$" "$WORK/compose.yml" || { echo "compose's configuration has no job for $service"; exit 1; }
done
promtool check config "$WORK/compose.yml"
jobs=""
for service in "${SERVICES[@]}"; do
  port=${SERVICE_PORT[$service]}
  jobs+=$(scrape_job "$service" "127.0.0.1:$port" "127.0.0.1:$((port + 1))")$'\n'
done
sed -e 's|@SCRAPE_INTERVAL@|5s|g' -e "s|@CONF_DIR@|$ROOT/deploy/prometheus|g" local.yml.template |
  fill_placeholders "SCRAPE_JOBS=$jobs" >"$WORK/local.yml"
promtool check config "$WORK/local.yml"
# A rule on a family no code registers would never fire.
for family in $(grep -o 'petstore_[a-z_]*' rules.yml | sort -u); do
  grep -rqs "\"$family\"" "$ROOT/shared" "$ROOT/platform" "$ROOT/services" ||
    { echo "rules.yml names $family, which no service registers"; exit 1; }
done
echo "ok: rules, compose's and the local configuration"
