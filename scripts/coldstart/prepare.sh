#!/usr/bin/env bash
# The data the cold-start experiment and the AOT training run read: the wallet data set in the wallet A/B's
# `after` database (100,000 members, unique index) and two small universities (11 and 12, ROUTES routes each,
# default 500) in the same database, so that one app serves the whole mix. Cheap when it is already there.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
DB=${PERFLAB_COLD_DB:-perflab_wallet_after}
UNIVS=${COLD_UNIVS:-11,12}
ROUTES=${COLD_ROUTES:-500}
scripts/wallet/prepare.sh after
have=$(mariadb -h127.0.0.1 -P"${PERFLAB_DB_PORT:-3306}" -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" -N -B \
  -e "SELECT COUNT(*) FROM route WHERE univ_id IN ($UNIVS)" "$DB")
if [ "$have" -ne $(( ROUTES * $(tr ',' '\n' <<<"$UNIVS" | wc -l) )) ]; then
  PERFLAB_DB_NAME=$DB PERFLAB_ROUTE_UNIVS=$UNIVS scripts/seed-route.sh "$ROUTES"
else
  echo "cold-start routes ($UNIVS, $ROUTES each) are in place in $DB"
fi
