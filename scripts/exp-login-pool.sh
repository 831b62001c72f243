#!/usr/bin/env bash
# Per-request against pooled connections at one steady arrival rate both sustain, run alternately
# (A B A B ...), each on a fresh app with the same discarded warm-up. Prints login latency and the
# mechanism: connections opened per request sent to the auth API.
# ./perflab exp login-pool [ROUNDS] [RATE] [DURATION]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-2} RATE=${2:-40} DURATION=${3:-30s}
trap '"$PERFLAB" app stop >/dev/null' EXIT


printf '%-12s %5s %8s %8s %8s %10s %9s %8s\n' client round p50_ms p95_ms p99_ms requests opened failed
for round in $(seq 1 "$ROUNDS"); do
  for client in per-request pooled; do
    restart_app --perflab.login.client="$client" --perflab.login.warmup=off --perflab.login.guard=none
    "$K6" run --quiet --no-color -e BASE_URL="$APP_URL" -e RATE="$RATE" -e DURATION=10s -e VARIANT=warmup \
      "$PERFLAB_ROOT/k6/login.js" >/dev/null 2>&1 || true
    opened0=$(counter perflab_login_http_connections_opened_total); sent0=$(counter perflab_login_http_requests_total)
    summary=$(mktemp)
    "$K6" run --quiet --no-color -e BASE_URL="$APP_URL" -e RATE="$RATE" -e DURATION="$DURATION" -e VARIANT="$client" \
      -e SUMMARY="$summary" "$PERFLAB_ROOT/k6/login.js" >/dev/null 2>&1 || true
    opened=$(( $(counter perflab_login_http_connections_opened_total) - opened0 ))
    sent=$(( $(counter perflab_login_http_requests_total) - sent0 ))
    python3 - "$summary" "$client" "$round" "$sent" "$opened" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
d = m["http_req_duration{scenario:login}"]["values"]
print(f"{sys.argv[2]:<12} {sys.argv[3]:>5} {d['med']:8.1f} {d['p(95)']:8.1f} {d['p(99)']:8.1f} {sys.argv[4]:>10} {sys.argv[5]:>9} {100 * m['http_req_failed']['values']['rate']:7.2f}%")
PY
  done
done
