#!/usr/bin/env bash
# The auth API goes dark: a Toxiproxy `timeout` toxic on auth-api-https accepts connections and drops
# every byte, as a hung or black-holed host does. With guard=none every login waits for the response
# timeout; with guard=bulkhead the circuit opens and logins answer 503 at once without opening a
# connection (auth API connections stop growing). Prints latency and the counters for both.
# ./perflab exp circuit-open [RATE] [DURATION]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
RATE=${1:-50} DURATION=${2:-15s}
TOXI=http://127.0.0.1:$PERFLAB_TOXIPROXY_PORT
dark() { curl -fsS -X POST "$TOXI/proxies/auth-api-https/toxics" \
  -d '{"name": "dark", "type": "timeout", "stream": "downstream", "attributes": {"timeout": 0}}' >/dev/null; }
light() { curl -fsS -X DELETE "$TOXI/proxies/auth-api-https/toxics/dark" >/dev/null 2>&1 || true; }
restore() { light; "$PERFLAB" app stop >/dev/null; }
trap restore EXIT
for guard in none bulkhead; do
  restart_app --perflab.login.client=pooled --perflab.login.warmup=on --perflab.login.guard="$guard" --perflab.server.threads=virtual
  dark
  # let the breaker see failures first (it needs minimum-number-of-calls): 12 at once, each times out
  for _ in $(seq 1 12); do curl -s -o /dev/null -H 'Content-Type: application/json' \
    -d '{"loginId":"user1","password":"perflab-pass"}' "$APP_URL/api/auth/login" & done; wait
  opened0=$(counter perflab_login_http_connections_opened_total)
  "$K6" run --quiet --no-color -e BASE_URL="$APP_URL" -e RATE="$RATE" -e DURATION="$DURATION" -e VARIANT="guard=$guard" \
    "$PERFLAB_ROOT/k6/login-down.js" 2>/dev/null | grep -E '^guard='
  echo "  connections opened to the dark API during the run: $(( $(counter perflab_login_http_connections_opened_total) - opened0 )); short-circuited calls: $(counter 'perflab_login_guard_calls_total{outcome="short-circuited"')"
  light
done
