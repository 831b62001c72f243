#!/bin/sh
# The stack's network on Toxiproxy, idempotent. POSIX sh + curl, so that both the native stack and compose's
# toxiproxy-config service run it.
# - The auth API: PERFLAB_AUTH_LATENCY_MS (default 10) of latency each way on both auth-api proxies, so that a TLS
#   handshake costs round trips as over a real network.
# - MariaDB and Redis (compose's network settings, compose/network-*.yml): when PERFLAB_DB_TOXICS or
#   PERFLAB_REDIS_TOXICS is set, the proxy `mariadb` or `redis` gets exactly those toxics, one JSON object a line
#   (Toxiproxy's toxic as tooling/perflab/lab/network.py builds it from experiments/network.toml); unset leaves that proxy alone.
set -eu
API=${TOXIPROXY_URL:-http://127.0.0.1:${PERFLAB_TOXIPROXY_PORT:-8474}}
LATENCY=${PERFLAB_AUTH_LATENCY_MS:-10}
toxic() { # toxic PROXY JSON: adds one toxic to the proxy
  curl -fsS -X POST "$API/proxies/$1/toxics" -H 'Content-Type: application/json' -d "$2" >/dev/null
}
for proxy in auth-api-https auth-api-http; do
  curl -fsS -X POST "$API/proxies/$proxy" -H 'Content-Type: application/json' -d '{"enabled": true}' >/dev/null
  for stream in upstream downstream; do
    curl -fsS -X DELETE "$API/proxies/$proxy/toxics/latency_$stream" >/dev/null 2>&1 || true
    toxic "$proxy" "{\"name\": \"latency_$stream\", \"type\": \"latency\", \"stream\": \"$stream\", \"attributes\": {\"latency\": $LATENCY}}"
  done
done
echo "auth API latency: ${LATENCY} ms each way"
link_toxics() { # link_toxics PROXY TOXICS: the proxy's toxics, whatever they are, replaced by TOXICS, one JSON object a line
  for name in $(curl -fsS "$API/proxies/$1/toxics" | grep -o '"name":"[^"]*"' | cut -d'"' -f4); do
    curl -fsS -X DELETE "$API/proxies/$1/toxics/$name" >/dev/null
  done
  count=0
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    toxic "$1" "$line"
    count=$((count + 1))
  done <<TOXICS
$2
TOXICS
  echo "$1: $count toxics"
}
if [ -n "${PERFLAB_DB_TOXICS+set}" ]; then link_toxics mariadb "$PERFLAB_DB_TOXICS"; fi
if [ -n "${PERFLAB_REDIS_TOXICS+set}" ]; then link_toxics redis "$PERFLAB_REDIS_TOXICS"; fi
