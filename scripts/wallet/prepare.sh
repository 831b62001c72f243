#!/usr/bin/env bash
# Makes sure the wallet database of one side exists, is migrated for that side's index and holds the seed's
# data: scripts/wallet/prepare.sh before|after. Cheap when it already does (the A/B runner calls it each time).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
side=${1:?usage: $0 before|after}
db=${WALLET_DB_PREFIX:-perflab_wallet}_$side
if scripts/seed-wallet.sh --db "$db" verify >/dev/null 2>&1; then
  echo "wallet data of $side ($db) is in place"
  exit 0
fi
mariadb -h127.0.0.1 -P"${PERFLAB_DB_PORT:-3306}" -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" \
  -e "CREATE DATABASE IF NOT EXISTS \`$db\`"
echo "migrating $db for the $side side (starting the app once against it)"
scripts/wallet/app.sh start "$side" >/dev/null
scripts/wallet/app.sh stop >/dev/null
scripts/seed-wallet.sh --db "$db" load
