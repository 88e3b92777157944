#!/bin/bash
# Prometheus' process in compose.yaml: renders its configuration
# (compose.yml.template) with a scrape job for each service of
# services/services.txt, which compose.yaml mounts, on the port every service
# listens on in compose, then runs Prometheus with the arguments given.
# --print: prints the configuration instead (tests/contract/prometheus_config.sh).
set -euo pipefail
conf_dir=${PROMETHEUS_CONF_DIR:-/etc/prometheus/petstore}
services_file=${PETSTORE_SERVICES_FILE:-/etc/prometheus/petstore-services.txt}
port=8080
jobs=""
while read -r name _; do
  if [[ $name =~ ^[a-z] ]]; then
    jobs+="  - job_name: $name"$'\n'
    jobs+="    dns_sd_configs: [{names: [$name], type: A, port: $port, refresh_interval: 10s}]"$'\n'
  fi
done <"$services_file"
template=$(<"$conf_dir/compose.yml.template")
config=${template//@SCRAPE_JOBS@/${jobs%$'\n'}}
config=${config//@CONF_DIR@/$conf_dir}
if [[ ${1:-} == --print ]]; then
  printf '%s\n' "$config"
  exit 0
fi
printf '%s\n' "$config" >/tmp/petstore-prometheus.yml
exec /usr/bin/prometheus --config.file=/tmp/petstore-prometheus.yml "$@"
