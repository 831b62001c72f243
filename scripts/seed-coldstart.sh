#!/usr/bin/env bash
# The cold-start data set (seed 000): what ./perflab ab cold-start and ./perflab aot build read, in one database
# so that one app serves the whole mix: the wallet data set with the UNIQUE index (the `after` side) and two small
# universities, 11 and 12, with 500 routes each.
#
#   ./perflab seed coldstart [--db NAME] [ensure|load|reset|verify|check|status]
#
# --db: default PERFLAB_COLD_DB, else perflab_wallet_after (the wallet A/B's `after` database, which already holds
# the wallet data set). Every action goes to both parts; `reset` resets the wallet part (ROUTES and UNIVS of the
# cold-start mix: COLD_ROUTES, COLD_UNIVS). Extra options (--redis-db N) go to the wallet part.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DB=${PERFLAB_COLD_DB:-perflab_wallet_after} ACTION=ensure WALLET_ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --db) DB=${2:?--db needs a name}; shift 2 ;;
    --db=*) DB=${1#--db=}; shift ;;
    --redis-db) WALLET_ARGS+=("$1" "${2:?--redis-db needs a number}"); shift 2 ;;
    --redis-db=*) WALLET_ARGS+=("$1"); shift ;;
    ensure|load|reset|check|verify|status) ACTION=$1; shift ;;
    *) echo "usage: ./perflab seed coldstart [--db NAME] [--redis-db N] [ensure|load|reset|verify|check|status]" >&2; exit 2 ;;
  esac
done
bash "$ROOT/scripts/seed-wallet.sh" --db "$DB" --index unique ${WALLET_ARGS[@]+"${WALLET_ARGS[@]}"} "$ACTION"
bash "$ROOT/scripts/seed-route.sh" --db "$DB" --univs "${COLD_UNIVS:-11,12}" --routes "${COLD_ROUTES:-500}" "$ACTION"
