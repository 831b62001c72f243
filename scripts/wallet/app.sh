#!/usr/bin/env bash
# Starts or stops the app for one side of the wallet A/B on its own database and port, without touching the
# shared app on 8080 or the shared database `perflab`.
#   scripts/wallet/app.sh start before|after [-- extra app args]   (profile wallet-<side>, database perflab_wallet_<side>)
#   scripts/wallet/app.sh stop
# WALLET_APP_PORT (8093; 8083 was taken by another checkout), WALLET_REDIS_DB (4), WALLET_DB_PREFIX (perflab_wallet),
# WALLET_DB_PORT (3306) and WALLET_REDIS_PORT (6379) (ab.sh points them at Toxiproxy for DB_LATENCY_MS) and
# PERFLAB_HEAP (-Xmx1g) override. WALLET_APP_JAR runs another build (e.g. a copy of an older jar, to compare two
# commits in one sitting) instead of target/perflab.jar, which is rebuilt when stale.
# ./perflab app start reads .env, whose PERFLAB_APP_PORT/PERFLAB_DB_NAME win over the caller's environment,
# so this script passes the port and the database as Spring arguments instead.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
PORT=${WALLET_APP_PORT:-8093}
REDIS_DB=${WALLET_REDIS_DB:-4}
PREFIX=${WALLET_DB_PREFIX:-perflab_wallet}
DB_PORT=${WALLET_DB_PORT:-3306}
REDIS_PORT=${WALLET_REDIS_PORT:-6379}
PIDFILE=$ROOT/.perflab/wallet-app.pid
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
mkdir -p "$ROOT/.perflab"

stop() {
  if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    local pid; pid=$(cat "$PIDFILE")
    kill "$pid"
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    echo "wallet app stopped (pid $pid)"
  fi
  rm -f "$PIDFILE"
}

start() {
  local side=${1:?usage: start before|after}; shift
  [ "${1:-}" = -- ] && shift
  case $side in before|after) ;; *) echo "side must be before or after" >&2; exit 2 ;; esac
  stop
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    echo "port $PORT is already served by another process; set WALLET_APP_PORT" >&2; exit 1
  fi
  if [ -z "${WALLET_APP_JAR:-}" ] && { [ ! -f target/perflab.jar ] || [ -n "$(find src/main pom.xml -newer target/perflab.jar -print -quit)" ]; }; then
    JAVA_HOME=$(dirname "$(dirname "$JAVA")") ./mvnw -B -q -DskipTests package
  fi
  mariadb -h127.0.0.1 -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" \
    -e "CREATE DATABASE IF NOT EXISTS \`${PREFIX}_$side\`"
  local log=$ROOT/.perflab/wallet-$side.log
  # shellcheck disable=SC2086
  nohup "$JAVA" ${PERFLAB_HEAP:--Xmx1g} -jar "${WALLET_APP_JAR:-target/perflab.jar}" --spring.profiles.active="wallet-$side" \
    --server.port="$PORT" --spring.datasource.url="jdbc:mariadb://127.0.0.1:$DB_PORT/${PREFIX}_$side" \
    --spring.data.redis.port="$REDIS_PORT" --spring.data.redis.database="$REDIS_DB" "$@" >"$log" 2>&1 &
  echo $! >"$PIDFILE"
  for _ in $(seq 1 600); do
    if curl -fs "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null 2>&1; then
      echo "wallet-$side ready on :$PORT, database ${PREFIX}_$side, redis db $REDIS_DB (log $log)"
      grep -m1 'perflab variant' "$log" | sed 's/.*: perflab variant/variant/' || true
      return 0
    fi
    kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { tail -n 30 "$log" >&2; rm -f "$PIDFILE"; exit 1; }
    sleep 0.2
  done
  echo "not ready after 120 s (log $log)" >&2; exit 1
}

case ${1:-} in
  start) shift; start "$@" ;;
  stop) stop ;;
  *) echo "usage: $0 start before|after [-- app args] | stop" >&2; exit 2 ;;
esac
