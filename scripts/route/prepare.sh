#!/usr/bin/env bash
# Makes sure the database in PERFLAB_DB_NAME (default perflab) is migrated and holds the route data set;
# cheap when it already does. The A/B runner calls it before ./perflab ab route.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
db=${PERFLAB_DB_NAME:-perflab}
q() { mariadb -h127.0.0.1 -P"${PERFLAB_DB_PORT:-3306}" -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" -N -B "$@"; }
routes=$(q "$db" -e "SELECT COUNT(*) FROM route" 2>/dev/null || echo 0)
if [ "$routes" -ge 150000 ]; then
  echo "route data in $db: $routes routes"
  exit 0
fi
if [ "$(q "$db" -e "SELECT COUNT(*) FROM flyway_schema_history WHERE version = '4' AND success = 1" 2>/dev/null || echo 0)" != 1 ]; then
  echo "migrating $db (starting the app once)"
  ./perflab app stop >/dev/null
  ./perflab app start >/dev/null
  ./perflab app stop >/dev/null
fi
PERFLAB_DB_NAME=$db bash scripts/seed-route.sh
