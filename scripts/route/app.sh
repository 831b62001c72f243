#!/usr/bin/env bash
# Starts or stops one perflab app per port for side-by-side route measurements (several variants at once, each
# idle while another is loaded). Same JVM flags as ./perflab: the heap preset of the profile and the Unsafe flag.
#   scripts/route/app.sh start route-after 8083 [app args]   (database $PERFLAB_DB_NAME, default perflab_route)
#   scripts/route/app.sh stop 8083
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
mkdir -p "$ROOT/.perflab"
case ${1:-} in
  start)
    profile=$2 port=$3; shift 3
    case ",$profile," in *,route-after,*|*,route-binary,*|*,after,*) heap="-Xms1g -Xmx1g" ;; *) heap="-Xmx1g" ;; esac
    heap=${PERFLAB_HEAP:-$heap}
    if [ ! -f "$ROOT/target/perflab.jar" ] || [ -n "$(find "$ROOT/src/main" "$ROOT/pom.xml" -newer "$ROOT/target/perflab.jar" -print -quit)" ]; then
      (cd "$ROOT" && ./mvnw -B -q -DskipTests package)
    fi
    # shellcheck disable=SC2086
    PERFLAB_APP_PORT=$port PERFLAB_DB_NAME=${PERFLAB_DB_NAME:-perflab_route} nohup "$JAVA" $heap \
      --sun-misc-unsafe-memory-access=allow -jar "$ROOT/target/perflab.jar" --spring.profiles.active="$profile" \
      --spring.data.redis.database="${PERFLAB_REDIS_DB:-2}" "$@" >"$ROOT/.perflab/route-$port.log" 2>&1 &
    echo $! >"$ROOT/.perflab/route-$port.pid"
    for _ in $(seq 1 600); do
      if curl -fs "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null 2>&1; then
        echo "$profile ($heap) ready on $port: $(grep -m1 -o 'perflab variant.*' "$ROOT/.perflab/route-$port.log")"
        exit 0
      fi
      kill -0 "$(cat "$ROOT/.perflab/route-$port.pid")" 2>/dev/null || { tail -20 "$ROOT/.perflab/route-$port.log"; exit 1; }
      sleep 0.2
    done
    echo "not ready after 120 s: $ROOT/.perflab/route-$port.log" >&2; exit 1 ;;
  stop)
    pidfile=$ROOT/.perflab/route-$2.pid
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null && echo "stopped $2" || true
    rm -f "$pidfile" ;;
  *) echo "usage: app.sh start PROFILE PORT [args] | stop PORT" >&2; exit 2 ;;
esac
