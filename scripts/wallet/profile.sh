#!/usr/bin/env bash
# Where a transfer's CPU goes: CPU per transfer of the app and of MariaDB, and a JFR profile of the app, for
# each side under the same fixed load, sides interleaved (before after before after ...).
#
#   scripts/wallet/profile.sh [rounds]      (default 2)
#
# Each run: reset the side's database, start the side (scripts/wallet/app.sh), warm up (WARM at WARM_RATE,
# discarded), then k6/transfer.js MODE=fixed at RATE for DURATION while JFR records (JFR=0 turns it off;
# settings=profile plus jdk.CPUTimeSample, JDK 25's CPU-time sampler). Around the measured run it reads, from /proc:
#   app      the app's process CPU seconds (utime + stime)
#   db_conn  the CPU of MariaDB's threads that serve this app's connections (information_schema.PROCESSLIST.TID
#            of the connections to the side's database): only this app's statements, whatever else runs
#   db_all   all of mariadbd (includes InnoDB's background threads, and any other client on the machine)
# and divides each by the transfers the app counted (perflab_wallet_transfer_seconds_count, every outcome).
# One line per run; the JFR files and a top-frames summary (scripts/wallet/jfr_top.py) stay in results/wallet/.
#
# Environment: RATE (100), DURATION (40s), WARM_RATE (50), WARM (20s), SENDERS (200), JFR (1), SIDES ("before after"),
# and app.sh's WALLET_APP_PORT, WALLET_DB_PREFIX, WALLET_REDIS_DB. The machine's load is printed with each line:
# compare the sides as ratios within one sitting.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
ROUNDS=${1:-2}
PORT=${WALLET_APP_PORT:-8093}
PREFIX=${WALLET_DB_PREFIX:-perflab_wallet}
URL=http://127.0.0.1:$PORT
K6=${PERFLAB_BIN:-/var/lib/perflab/bin}/k6
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
MARIADB_PID=$(cat "${PERFLAB_RUN:-/var/lib/perflab/run}/mariadb.pid")
OUT=results/wallet/$(date -u +%Y%m%dT%H%M%SZ)-profile
mkdir -p "$OUT"
export RATE=${RATE:-100} DURATION=${DURATION:-40s} SENDERS=${SENDERS:-200}

conn_tids() { # the mariadbd threads (OS tids) that serve the connections to database $1
  mariadb -h127.0.0.1 -P"${PERFLAB_DB_PORT:-3306}" -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" -N -B \
    -e "SELECT TID FROM information_schema.PROCESSLIST WHERE DB = '$1'"
}
transfers() { curl -fs "$URL/actuator/prometheus" | awk '/^perflab_wallet_transfer_seconds_count\{/ {n += $2} END {print n + 0}'; }

one_run() { # one_run SIDE ROUND
  local side=$1 round=$2 dir=$OUT/$2-$1 db=${PREFIX}_$1 pid n0 n1 tids
  mkdir -p "$dir"
  scripts/seed-wallet.sh --db "$db" reset >/dev/null
  # deeper JFR stacks than the default 64 frames: a request under Spring Security is deeper than that
  PERFLAB_HEAP="${PERFLAB_HEAP:--Xmx1g} -XX:FlightRecorderOptions:stackdepth=256" scripts/wallet/app.sh start "$side" >/dev/null
  pid=$(cat .perflab/wallet-app.pid)
  "$K6" run -q -e BASE_URL="$URL" -e MODE=fixed -e RATE="${WARM_RATE:-50}" -e DURATION="${WARM:-20s}" -e REVERSE_RATE=0 \
    --no-thresholds --no-summary k6/transfer.js >/dev/null 2>&1 || true
  tids=$(conn_tids "$db" | tr '\n' ' ')
  n0=$(transfers)
  "$K6" run -q -e BASE_URL="$URL" -e MODE=fixed --summary-export "$dir/k6.json" k6/transfer.js >"$dir/k6.txt" 2>&1 &
  local k6=$!
  # k6's setup() logs the senders in first (the login feature's CPU): measure from the first transfer on
  while [ "$(transfers)" = "$n0" ] && kill -0 "$k6" 2>/dev/null; do sleep 0.2; done
  # shellcheck disable=SC2086
  python3 scripts/wallet/cpu.py snap "$pid" "$MARIADB_PID" $tids >"$dir/cpu-before.json"
  n0=$(transfers)
  if [ "${JFR:-1}" = 1 ]; then
    "$JAVA_HOME/bin/jcmd" "$pid" JFR.start name=wallet settings=profile jdk.CPUTimeSample#enabled=true \
      jdk.CPUTimeSample#throttle=2ms filename="$ROOT/$dir/app.jfr" >/dev/null
  fi
  wait "$k6" || true
  # shellcheck disable=SC2086
  python3 scripts/wallet/cpu.py snap "$pid" "$MARIADB_PID" $tids >"$dir/cpu-after.json"
  n1=$(transfers)
  [ "${JFR:-1}" = 1 ] && "$JAVA_HOME/bin/jcmd" "$pid" JFR.stop name=wallet >/dev/null
  scripts/wallet/app.sh stop >/dev/null
  python3 scripts/wallet/cpu.py diff "$dir/cpu-before.json" "$dir/cpu-after.json" "$((n1 - n0))" "$dir/k6.json" \
    "round $round wallet-$side" | tee "$dir/result.txt"
  if [ "${JFR:-1}" = 1 ]; then
    python3 scripts/wallet/jfr_top.py "$dir/app.jfr" >"$dir/jfr-top.txt" 2>&1 || true
  fi
}

echo "wallet CPU profile: rounds=$ROUNDS RATE=$RATE DURATION=$DURATION SENDERS=$SENDERS port $PORT, databases ${PREFIX}_* -> $OUT"
for round in $(seq 1 "$ROUNDS"); do
  for side in ${SIDES:-before after}; do
    one_run "$side" "$round"
  done
done | tee "$OUT/summary.txt"
