#!/usr/bin/env bash
# Seed 000's experiment on perflab: the first 8,000 requests after a start, over the matrix
# {platform, virtual threads} x {warm-up off, on} x {no AOT cache, AOT cache}.
#   ./perflab exp cold-start [ROUNDS]      (default 1 round; each round runs all 8 combinations)
#   ./perflab exp cold-start --smoke       CI: virtual threads with warm-up, without and with the AOT cache,
#                                          600 requests at 100/s; fails unless both succeed >= 95%
# Warm-up on = perflab.server.warmup=on (300 requests of every feature's hot paths, dry-run transfers) and
# perflab.login.warmup=on (the auth API pool opened). Each run: reset the wallet data, launch the app (preset
# COLD_PROFILE, default after, with the combination's knobs) and k6/cold-start.js together; k6 polls readiness
# and fires RATE (200/s) of the mix the moment it says ACCEPTING_TRAFFIC, with a TIMEOUT (1s) per request. The AOT cache is built first when it is missing or stale
# (./perflab aot build). Results: one JSON line per run in .perflab/cold-start/, and the seed's table.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SMOKE=
[ "${1:-}" = --smoke ] && { SMOKE=1; shift; }
ROUNDS=${1:-1}
if [ -n "$SMOKE" ]; then
  export RATE=${RATE:-100} REQUESTS=600 AOT_TRAIN_REQUESTS=${AOT_TRAIN_REQUESTS:-1000}
fi
PROFILE=${COLD_PROFILE:-after}
DB=${PERFLAB_COLD_DB:-perflab_wallet_after}
OUT=$PERFLAB_ROOT/.perflab/cold-start
mkdir -p "$OUT"
RESULTS=$OUT/results-$(date +%Y%m%d-%H%M%S).jsonl
trap '"$PERFLAB" app stop >/dev/null' EXIT

bash "$PERFLAB_ROOT/scripts/coldstart/prepare.sh"
"$PERFLAB" app stop >/dev/null
"$PERFLAB" aot status | grep -q fresh || "$PERFLAB" aot build

run() { # run AOT THREADS WARMUP ROUND
  local aot=$1 threads=$2 warmup=$3 round=$4 app k6 started
  WALLET_REDIS_DB=0 bash "$PERFLAB_ROOT/scripts/seed-wallet.sh" --db "$DB" reset >/dev/null
  "$PERFLAB" app stop >/dev/null
  PERFLAB_DB_NAME=$DB "$PERFLAB" app start --profile "$PROFILE" ${aot:+--aot} -- \
    --perflab.server.threads="$threads" --perflab.server.warmup="$warmup" --perflab.login.warmup="$warmup" >"$OUT/start.log" 2>&1 &
  app=$!
  "$K6" run -q -e BASE_URL="$APP_URL" -e SUMMARY_OUT="$OUT/k6.json" \
    -e RATE="${RATE:-200}" -e REQUESTS="${REQUESTS:-10000}" -e TIMEOUT="${TIMEOUT:-1s}" -e VARIANT="cold-$threads-$warmup-${aot:-jit}" k6/cold-start.js >/dev/null 2>"$OUT/k6.log" &
  k6=$!
  wait "$app" || { cat "$OUT/start.log" >&2; kill "$k6" 2>/dev/null; return 1; }
  wait "$k6" || true # the report judges, not k6's exit code
  [ -s "$OUT/k6.json" ] || { cat "$OUT/start.log" >&2; tail -n 5 "$OUT/k6.log" >&2; echo "k6 wrote no summary (log: $OUT/k6.log)" >&2; return 1; }
  started=$(cat "$PERFLAB_ROOT/.perflab/app.started")
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.update(aot=sys.argv[2], threads=sys.argv[3],
warmup=sys.argv[4], round=int(sys.argv[5]), startedMs=int(sys.argv[6]),
jvmStarted=sys.argv[7]); print(json.dumps(d))' "$OUT/k6.json" "${aot:-no}" "$threads" "$warmup" "$round" "$started" \
    "$(grep -o 'Started PerflabApplication in [0-9.]* seconds' "$PERFLAB_ROOT/.perflab/app.log" | grep -o '[0-9.]*')" >>"$RESULTS"
  rm -f "$OUT/k6.json"
  python3 "$PERFLAB_ROOT/scripts/coldstart/report.py" --last "$RESULTS"
}

cd "$PERFLAB_ROOT"
if [ -n "$SMOKE" ]; then
  run "" virtual on 1
  run aot virtual on 1
  python3 scripts/coldstart/report.py --min-success 95 "$RESULTS"
  exit
fi
for round in $(seq 1 "$ROUNDS"); do
  for aot in "" aot; do
    for threads in platform virtual; do
      for warmup in off on; do
        run "$aot" "$threads" "$warmup" "$round"
      done
    done
  done
done
echo
python3 scripts/coldstart/report.py "$RESULTS"
echo "results: $RESULTS"
