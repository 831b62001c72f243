#!/usr/bin/env bash
# The route measurements of docs/route.md, side by side on one machine (A B A B ...). Apps run on their own ports
# (scripts/route/app.sh) against database $PERFLAB_DB_NAME (default perflab_route, seeded with
# `PERFLAB_DB_NAME=perflab_route ./perflab seed route`) and Redis database 2. Output: one line per run.
#   scripts/route/ab.sh e2e      route-before / route-after / route-binary, closed model (VUS, DURATION, ROUNDS)
#   scripts/route/ab.sh ceiling  cached bytes, no decoding, against route-after's and route-binary's caches
#   scripts/route/ab.sh codecs   all four codecs end to end (redis, batched) with each one's ceiling
#   scripts/route/ab.sh layout   small-command latency (redis-probe.py) while the app reads single vs batched values
#   scripts/route/ab.sh jmh      the codec benchmarks with -prof gc
# VUS (default 50), DURATION (default 60s; the seed used 120s), ROUNDS (default 2), WARMUP (default 20s).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
K6=${K6:-/var/lib/perflab/bin/k6}
VUS=${VUS:-50} DURATION=${DURATION:-60s} ROUNDS=${ROUNDS:-2} WARMUP=${WARMUP:-20s}
APP=scripts/route/app.sh

# k6run PORT VARIANT VUS DURATION [env...]: one closed-model run; prints TPS, p50, p90, p99 and failures
k6run() {
  local port=$1 variant=$2 vus=$3 duration=$4; shift 4
  env "$@" BASE_URL="http://127.0.0.1:$port" VUS="$vus" DURATION="$duration" VARIANT="$variant" \
    "$K6" run -q --no-color --summary-export /tmp/route-k6-summary.json k6/routes.js >/dev/null 2>&1 || true
  python3 - "$variant" <<'PY'
import json, sys
m = json.load(open("/tmp/route-k6-summary.json"))["metrics"]
d, r = m["http_req_duration"], m["http_reqs"]
failed = m.get("http_req_failed", {}).get("value", 0)
print(f"{sys.argv[1]:<26} TPS {r['rate']:7.2f}  ok TPS {r['rate'] * (1 - failed):7.2f}  p50 {d['med']:8.1f} ms  "
      f"p90 {d['p(90)']:8.1f} ms  p99 {d['p(99)']:8.1f} ms  failed {failed:.2%}")
PY
}

start() { $APP start "$@"; }
stopall() { for p in "$@"; do $APP stop "$p" >/dev/null; done; }

case ${1:-} in
  e2e)
    start route-before 8082; start route-after 8083; start route-binary 8084
    trap 'stopall 8082 8083 8084' EXIT
    for p in 8082 8083 8084; do k6run $p warmup-$p "$VUS" "$WARMUP" >/dev/null; done
    for round in $(seq 1 "$ROUNDS"); do
      k6run 8082 "route-before#$round" "$VUS" "$DURATION"
      k6run 8083 "route-after#$round" "$VUS" "$DURATION"
      k6run 8084 "route-binary#$round" "$VUS" "$DURATION"
    done ;;
  ceiling)
    start route-after 8083; start route-binary 8084
    trap 'stopall 8083 8084' EXIT
    for p in 8083 8084; do k6run $p warmup-$p "$VUS" "$WARMUP" >/dev/null; k6run $p warmup-$p "$VUS" "$WARMUP" ENDPOINT=cached-bytes >/dev/null; done
    for round in $(seq 1 "$ROUNDS"); do
      k6run 8083 "fastjson2 routes#$round" "$VUS" "$DURATION"
      k6run 8083 "fastjson2 ceiling#$round" "$VUS" "$DURATION" ENDPOINT=cached-bytes
      k6run 8084 "fory routes#$round" "$VUS" "$DURATION"
      k6run 8084 "fory ceiling#$round" "$VUS" "$DURATION" ENDPOINT=cached-bytes
    done ;;
  codecs)
    # every codec end to end (cache=redis, batched) and its ceiling (its own cached bytes, no decoding)
    ports=(8086 8083 8087 8084) codecs=(jackson fastjson2 fastjson2-jsonb fory)
    for i in 0 1 2 3; do start route-after "${ports[$i]}" --perflab.route.codec="${codecs[$i]}" --perflab.variant="codec-${codecs[$i]}"; done
    trap 'stopall 8086 8083 8087 8084' EXIT
    for p in "${ports[@]}"; do k6run "$p" warmup "$VUS" "$WARMUP" >/dev/null; k6run "$p" warmup "$VUS" "$WARMUP" ENDPOINT=cached-bytes >/dev/null; done
    for round in $(seq 1 "$ROUNDS"); do
      for i in 0 1 2 3; do
        k6run "${ports[$i]}" "${codecs[$i]} routes#$round" "$VUS" "$DURATION"
        k6run "${ports[$i]}" "${codecs[$i]} ceiling#$round" "$VUS" "$DURATION" ENDPOINT=cached-bytes
      done
    done ;;
  layout)
    LVUS=${LAYOUT_VUS:-10}
    start route-after 8085 --perflab.route.layout=single; start route-after 8083
    trap 'stopall 8083 8085' EXIT
    for p in 8085 8083; do k6run $p warmup-$p "$LVUS" "$WARMUP" >/dev/null; done
    secs=${DURATION%s}
    echo "idle Redis:            $(python3 scripts/route/redis-probe.py 10 200)"
    for round in $(seq 1 "$ROUNDS"); do
      for pair in "8085 single" "8083 batched"; do
        set -- $pair
        (sleep 3; python3 scripts/route/redis-probe.py $((secs - 6)) 200 >/tmp/route-probe.txt) &
        k6run "$1" "layout=$2#$round" "$LVUS" "$DURATION"
        wait
        echo "    during layout=$2: $(cat /tmp/route-probe.txt)"
      done
    done ;;
  jmh)
    ./mvnw -B -q -Pjmh test-compile exec:exec -Djmh.args="RouteCodecBenchmark -prof gc" \
      | grep -E '^\[bytes\]|^Benchmark|RouteCodecBenchmark\.(decode|encode)(:p0.50|:gc.alloc.rate.norm)? ' ;;
  *) sed -n '2,13p' "$0"; exit 2 ;;
esac
