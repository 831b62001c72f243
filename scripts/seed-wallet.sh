#!/usr/bin/env bash
# The wallet data set of seed 004: 100,000 members and wallets, 1,000,000 history rows, 2,000,000 ledger rows.
#
#   scripts/seed-wallet.sh [--db NAME] [load|reset|check]     (./perflab seed wallet [--db NAME] [...])
#
#   load   (default) replace the wallet data with the seed: generate TSV files (python3, deterministic, cached
#          under $WALLET_SEED_DIR) and LOAD DATA LOCAL INFILE them; re-running gives the same state
#   reset  between runs, in seconds: delete what transfers added (history and ledger rows past the seed, every
#          idempotency record, members and wallets past 100,000), put balances and phones back, and delete the
#          wallet's Redis keys (db $WALLET_REDIS_DB, default 4)
#   check  print counts and the invariants: sum of balances, no negative balance, debits = credits
#
# The database is --db, else PERFLAB_DB_NAME, else perflab. Note that ./perflab sources .env, which sets
# PERFLAB_DB_NAME=perflab, so through ./perflab pass --db. The schema is the app's (Flyway, at startup), and
# the side of the index A/B is fixed when a database is first migrated, so this script does not create
# tables: it refuses a database without the wallet migration and says how to get it
# (scripts/wallet/app.sh start before|after migrates perflab_wallet_before|after).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DB=${PERFLAB_DB_NAME:-perflab}
ACTION=load
while [ $# -gt 0 ]; do
  case $1 in
    --db) DB=${2:?--db needs a name}; shift 2 ;;
    --db=*) DB=${1#--db=}; shift ;;
    load|reset|check|verify) ACTION=$1; shift ;;
    *) echo "usage: $0 [--db NAME] [load|reset|check|verify]" >&2; exit 2 ;;
  esac
done
MEMBERS=100000
TRANSFERS=500000
SEED_DIR=${WALLET_SEED_DIR:-${TMPDIR:-/tmp}/perflab-wallet-seed}
REDIS_DB=${WALLET_REDIS_DB:-4}
STARTED=$(date +%s%N)

sql() {
  mariadb --local-infile=1 -h"${PERFLAB_DB_HOST:-127.0.0.1}" -P"${PERFLAB_DB_PORT:-3306}" \
    -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" "$DB" "$@"
}
say() { printf '[%6.1fs] %s\n' "$(( ($(date +%s%N) - STARTED) / 1000000 ))e-3" "$*"; }

require_schema() {
  local migrated
  migrated=$(sql -N -e "SELECT COUNT(*) FROM flyway_schema_history WHERE version = '3.1' AND success = 1" 2>/dev/null || echo 0)
  if [ "$migrated" != 1 ]; then
    echo "database '$DB' has no wallet schema (Flyway V3_1). Start the app once against it, which migrates it and" >&2
    echo "fixes its side of the index A/B: scripts/wallet/app.sh start before|after (databases perflab_wallet_<side>)." >&2
    exit 1
  fi
  say "database $DB, wallet.member_id index: $(sql -N -e "SELECT IF(MIN(non_unique) = 0, 'unique', 'non-unique')
    FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'wallet' AND column_name = 'member_id'")"
}

clear_redis() {
  if command -v redis-cli >/dev/null; then
    local n
    n=$(redis-cli -p "${PERFLAB_REDIS_PORT:-6379}" -n "$REDIS_DB" --scan --pattern 'wallet:*' | wc -l)
    redis-cli -p "${PERFLAB_REDIS_PORT:-6379}" -n "$REDIS_DB" --scan --pattern 'wallet:*' \
      | xargs -r -n 500 redis-cli -p "${PERFLAB_REDIS_PORT:-6379}" -n "$REDIS_DB" DEL >/dev/null
    say "deleted $n wallet:* keys in Redis db $REDIS_DB"
  else
    say "redis-cli not found: delete the wallet:* keys in Redis db $REDIS_DB yourself"
  fi
}

load() {
  require_schema
  if [ ! -f "$SEED_DIR/.done-$MEMBERS-$TRANSFERS" ]; then
    say "generating the seed files in $SEED_DIR"
    rm -f "$SEED_DIR"/.done-*
    python3 "$ROOT/scripts/wallet/generate.py" "$SEED_DIR" "$MEMBERS" "$TRANSFERS"
    touch "$SEED_DIR/.done-$MEMBERS-$TRANSFERS"
  else
    say "reusing the seed files in $SEED_DIR"
  fi
  say "emptying the wallet tables"
  sql -e "SET foreign_key_checks = 0;
    TRUNCATE idempotency_key; TRUNCATE ledger_entry; TRUNCATE wallet_transaction; TRUNCATE wallet; TRUNCATE member;"
  local common="SET foreign_key_checks = 0; SET unique_checks = 0;"
  say "loading $MEMBERS members and wallets"
  sql -e "$common
    LOAD DATA LOCAL INFILE '$SEED_DIR/member.tsv' INTO TABLE member (id, login_id, name, phone);
    LOAD DATA LOCAL INFILE '$SEED_DIR/wallet.tsv' INTO TABLE wallet (id, member_id, balance)
      SET pin_hash = SHA2(CONCAT('perflab-pin:', member_id, ':1234'), 256);"
  say "loading $((2 * TRANSFERS)) history rows"
  sql -e "$common LOAD DATA LOCAL INFILE '$SEED_DIR/history.tsv' INTO TABLE wallet_transaction
    (id, group_id, wallet_id, member_id, type, amount, balance_before, balance_after, counterparty_member_id,
     counterparty_name, status, created_at);"
  say "loading $((4 * TRANSFERS)) ledger rows"
  sql -e "$common LOAD DATA LOCAL INFILE '$SEED_DIR/ledger.tsv' INTO TABLE ledger_entry
    (id, group_id, wallet_id, ledger_code_id, debit, credit, created_at);"
  sql -e "ANALYZE TABLE member, wallet, wallet_transaction, ledger_entry" >/dev/null
  clear_redis
  say "seeded"
  check
}

reset() {
  require_schema
  say "deleting what the runs added"
  sql -e "DELETE FROM ledger_entry WHERE id > $((4 * TRANSFERS));
    DELETE FROM wallet_transaction WHERE id > $((2 * TRANSFERS));
    DELETE FROM idempotency_key;
    DELETE FROM wallet WHERE id > $MEMBERS OR member_id > $MEMBERS;
    DELETE FROM member WHERE id > $MEMBERS;
    UPDATE wallet SET balance = 1000000.00 WHERE balance <> 1000000.00;
    UPDATE member SET phone = CONCAT('010', LPAD(id, 8, '0'))
      WHERE phone IS NULL OR phone <> CONCAT('010', LPAD(id, 8, '0'));"
  clear_redis
  say "reset"
  check
}

check() {
  sql -t -e "SELECT (SELECT COUNT(*) FROM member) AS members, (SELECT COUNT(*) FROM wallet) AS wallets,
      (SELECT COUNT(*) FROM wallet_transaction) AS history, (SELECT COUNT(*) FROM ledger_entry) AS ledger,
      (SELECT COUNT(*) FROM idempotency_key) AS idempotency_keys;
    SELECT SUM(balance) AS sum_of_balances, MIN(balance) AS min_balance, COUNT(*) * 1000000.00 AS expected_sum FROM wallet;
    SELECT SUM(debit) AS debits, SUM(credit) AS credits, SUM(debit) = SUM(credit) AS balanced FROM ledger_entry;"
}

# verify: exits 0 only when the seed's members are there, money is conserved (every wallet started at
# 1,000,000.00 and transfers only move money), no balance is negative and the ledger's debits equal its credits
verify() {
  local row
  row=$(sql -N -e "SELECT COUNT(*), COALESCE(SUM(balance) = COUNT(*) * 1000000.00, 0), COALESCE(MIN(balance) >= 0, 0),
      (SELECT COALESCE(SUM(debit), 0) = COALESCE(SUM(credit), 0) FROM ledger_entry) FROM wallet")
  read -r wallets conserved non_negative balanced <<<"$row"
  echo "wallets $wallets, money conserved $conserved, no negative balance $non_negative, ledger balanced $balanced"
  [ "$wallets" -ge "$MEMBERS" ] && [ "$conserved" = 1 ] && [ "$non_negative" = 1 ] && [ "$balanced" = 1 ]
}

case $ACTION in
  load) load ;;
  reset) reset ;;
  check) require_schema; check ;;
  verify) require_schema >/dev/null; verify ;;
esac
