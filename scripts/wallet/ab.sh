#!/usr/bin/env bash
# The wallet A/B in one sitting: wallet-before and wallet-after alternate (A B A B ...), each on its own
# database (reset first), app on :8083, the same warm-up (discarded), then one bounded k6 run.
#
#   scripts/wallet/ab.sh ramp  [rounds]   max sustainable rate: RAMP plateaus of STEP s; the highest plateau
#                                         (and all below) with p95 < 300 ms and < 1% errors
#   scripts/wallet/ab.sh fixed [rounds]   one arrival RATE for DURATION: p95, Hikari pending/acquire, statements
#
# Environment: RAMP (default 50,100,150,200,250,300,350,400), STEP (10), RATE (150), DURATION (40s),
# WARM_RATE (50), WARM (20s), SENDERS (200), REVERSE_RATE (k6's default: RATE/20). Results: results/wallet/<time>/.
# DB_LATENCY_MS=N puts the app's MariaDB and Redis connections behind Toxiproxy proxies of the wallet's own
# (wallet-mariadb :13307, wallet-redis :16380) with N ms of latency each way, as between an app and a managed
# database (the seed's RDS); the shared proxies are left alone.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
MODE=${1:?usage: $0 ramp|fixed [rounds]}
ROUNDS=${2:-2}
PORT=${WALLET_APP_PORT:-8093}
URL=http://127.0.0.1:$PORT
K6=${PERFLAB_BIN:-/var/lib/perflab/bin}/k6
OUT=results/wallet/$(date -u +%Y%m%dT%H%M%SZ)-$MODE
mkdir -p "$OUT"
export RAMP=${RAMP:-50,100,150,200,250,300,350,400} STEP=${STEP:-10} RATE=${RATE:-150} DURATION=${DURATION:-40s}
export SENDERS=${SENDERS:-200}

scrape() { curl -fs "$URL/actuator/prometheus"; }

if [ -n "${DB_LATENCY_MS:-}" ]; then
  api=http://127.0.0.1:${PERFLAB_TOXIPROXY_PORT:-8474}
  for proxy in wallet-mariadb:13307:3306 wallet-redis:16380:6379; do
    IFS=: read -r name listen upstream <<<"$proxy"
    curl -fsS -X DELETE "$api/proxies/$name" >/dev/null 2>&1 || true
    curl -fsS -X POST "$api/proxies" -H 'Content-Type: application/json' \
      -d "{\"name\":\"$name\",\"listen\":\"127.0.0.1:$listen\",\"upstream\":\"127.0.0.1:$upstream\",\"enabled\":true}" >/dev/null
    for stream in upstream downstream; do
      curl -fsS -X POST "$api/proxies/$name/toxics" -H 'Content-Type: application/json' \
        -d "{\"name\":\"latency_$stream\",\"type\":\"latency\",\"stream\":\"$stream\",\"attributes\":{\"latency\":$DB_LATENCY_MS}}" >/dev/null
    done
  done
  export WALLET_DB_PORT=13307 WALLET_REDIS_PORT=16380
fi

one_run() { # one_run SIDE ROUND
  local side=$1 round=$2 dir=$OUT/$2-$1
  mkdir -p "$dir"
  scripts/seed-wallet.sh --db "perflab_wallet_$side" reset >/dev/null
  scripts/wallet/app.sh start "$side" >/dev/null
  "$K6" run -q -e BASE_URL="$URL" -e MODE=fixed -e RATE="${WARM_RATE:-50}" -e DURATION="${WARM:-20s}" -e REVERSE_RATE=0 \
    --no-thresholds --no-summary k6/transfer.js >/dev/null 2>&1 || true
  scrape >"$dir/metrics-before.txt"
  ( while :; do scrape | awk '/^hikaricp_connections_pending\{/ {print $2}'; sleep 0.5; done ) >"$dir/pending.txt" 2>/dev/null &
  local sampler=$!
  "$K6" run -q -e BASE_URL="$URL" -e MODE="$MODE" --summary-export "$dir/k6.json" k6/transfer.js >"$dir/k6.txt" 2>&1 || true
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  scrape >"$dir/metrics-after.txt"
  scripts/wallet/app.sh stop >/dev/null
  scripts/seed-wallet.sh --db "perflab_wallet_$side" check >"$dir/check.txt"
  printf 'round %s ' "$round"
  python3 scripts/wallet/report.py "$dir" "wallet-$side" "$MODE" | tee "$dir/result.txt"
}

echo "wallet A/B $MODE: rounds=$ROUNDS RAMP=$RAMP STEP=$STEP RATE=$RATE DURATION=$DURATION DB_LATENCY_MS=${DB_LATENCY_MS:-0} -> $OUT"
for round in $(seq 1 "$ROUNDS"); do
  one_run before "$round"
  one_run after "$round"
done | tee "$OUT/summary.txt"
