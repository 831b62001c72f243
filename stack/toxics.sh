#!/bin/sh
# The auth API's network: PERFLAB_AUTH_LATENCY_MS (default 10) of latency each way on both auth-api proxies,
# so that a TLS handshake costs round trips as over a real network. Idempotent. POSIX sh + curl, so that
# both the native stack and compose's toxiproxy-config service run it.
set -eu
API=${TOXIPROXY_URL:-http://127.0.0.1:${PERFLAB_TOXIPROXY_PORT:-8474}}
LATENCY=${PERFLAB_AUTH_LATENCY_MS:-10}
for proxy in auth-api-https auth-api-http; do
  curl -fsS -X POST "$API/proxies/$proxy" -H 'Content-Type: application/json' -d '{"enabled": true}' >/dev/null
  for stream in upstream downstream; do
    curl -fsS -X DELETE "$API/proxies/$proxy/toxics/latency_$stream" >/dev/null 2>&1 || true
    curl -fsS -X POST "$API/proxies/$proxy/toxics" -H 'Content-Type: application/json' \
      -d "{\"name\": \"latency_$stream\", \"type\": \"latency\", \"stream\": \"$stream\", \"attributes\": {\"latency\": $LATENCY}}" >/dev/null
  done
done
echo "auth API latency: ${LATENCY} ms each way"
