#!/usr/bin/env bash
# What one transfer sends to MariaDB, counted by the server: the deltas of SHOW GLOBAL STATUS (Questions and
# Com_*) over N sequential transfers (default 100, after 20 discarded) on one side's app (scripts/wallet/app.sh).
#   scripts/wallet/round-trips.sh before|after [N]
# Run it on a quiet database: the counters are global. Resets that side's data afterwards.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
side=${1:?usage: $0 before|after [N]}
n=${2:-100}
url=http://127.0.0.1:${WALLET_APP_PORT:-8093}
status() {
  mariadb -h127.0.0.1 -P"${PERFLAB_DB_PORT:-3306}" -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" -N -B -e \
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions','Com_select','Com_insert','Com_update','Com_commit','Com_set_option','Com_rollback')"
}
transfers() { # transfers COUNT: user1 sends 1.00 to user2, one at a time, each with its own key
  local token i
  token=$(python3 scripts/route/token.py 1 user1)
  for i in $(seq 1 "$1"); do
    curl -fs -o /dev/null -X POST "$url/api/transfers" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
      -H "Idempotency-Key: $(python3 -c 'import uuid; print(uuid.uuid4())')" \
      -d '{"receiverPhone":"01000000002","amount":1.00,"pin":"1234"}' || { echo "transfer $i failed" >&2; return 1; }
  done
}
trap 'scripts/wallet/app.sh stop >/dev/null' EXIT
scripts/wallet/app.sh start "$side" >/dev/null
transfers 20
before=$(status)
transfers "$n"
after=$(status)
join <(sort <<<"$before") <(sort <<<"$after") | awk -v n="$n" -v side="$side" \
  '{printf "%s %-16s %6.2f per transfer\n", side, $1, ($3 - $2) / n}'
scripts/seed-wallet.sh --db "${WALLET_DB_PREFIX:-perflab_wallet}_$side" reset >/dev/null
