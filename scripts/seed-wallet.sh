#!/usr/bin/env bash
# The wallet data set of seed 004: 100,000 members and wallets, 1,000,000 history rows, 2,000,000 ledger rows.
#
#   ./perflab seed wallet [--db NAME] [--index unique|non-unique] [--redis-db N] [ensure|load|reset|verify|check|status]
#
#   ensure (default) cheap check (the seed's last rows are there); if not: create and migrate the database when
#          needed (the app in migrate-only mode), then load. What ./perflab up runs; seconds when loaded.
#   load   replace the wallet data with the seed: generate TSV files (python3, deterministic, cached under
#          $WALLET_SEED_DIR) and LOAD DATA LOCAL INFILE them; re-running gives the same state (about 40 s)
#   reset  between runs, in seconds: delete what transfers added (history and ledger rows past the seed, every
#          idempotency record, members and wallets past 100,000), put balances and phones back, and delete every
#          wallet Redis key (wallet:* in Redis db --redis-db) the reset made wrong. A phone cache entry that maps a
#          seed phone to its own seed member is right again after the reset and stays, so wallet-after's cache is
#          as warm in every run as it is in service (the seed's phones change rarely); anything else goes: phones
#          a run changed, members a run created, the ledger codes
#   verify exit 0 only when the seed's members are there, money is conserved, no balance is negative and the
#          ledger balances
#   check  print counts and the invariants: sum of balances, no negative balance, debits = credits
#   status one line: loaded or not (the cheap check); ./perflab status prints it
#
# --db: the database (default PERFLAB_DB_NAME, perflab). --index: the wallet.member_id index a NEW database gets
# (the Flyway placeholder wallet_member_index, perflab.wallet.index); default: the active profile's
# (SPRING_PROFILES_ACTIVE), else non-unique. A database keeps the index it was first migrated with; asking for
# the other one is an error. --redis-db: where the app under test caches (default WALLET_REDIS_DB, else
# PERFLAB_REDIS_DB, else 0).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DB= INDEX= REDIS_DB=${WALLET_REDIS_DB:-${PERFLAB_REDIS_DB:-0}} ACTION=ensure
usage() { echo "usage: ./perflab seed wallet [--db NAME] [--index unique|non-unique] [--redis-db N] [ensure|load|reset|verify|check|status]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --db) DB=${2:?--db needs a name}; shift 2 ;;
    --db=*) DB=${1#--db=}; shift ;;
    --index) INDEX=${2:?--index needs unique or non-unique}; shift 2 ;;
    --index=*) INDEX=${1#--index=}; shift ;;
    --redis-db) REDIS_DB=${2:?--redis-db needs a number}; shift 2 ;;
    --redis-db=*) REDIS_DB=${1#--redis-db=}; shift ;;
    ensure|load|reset|check|verify|status) ACTION=$1; shift ;;
    *) usage ;;
  esac
done
case $INDEX in ''|unique|non-unique) ;; *) echo "perflab: --index must be unique or non-unique, not '$INDEX'" >&2; exit 2 ;; esac
. "$ROOT/scripts/seed/lib.sh"
DB=${DB:-${PERFLAB_DB_NAME:-perflab}}
MEMBERS=100000
TRANSFERS=500000
SEED_DIR=${WALLET_SEED_DIR:-${TMPDIR:-/tmp}/perflab-wallet-seed}

# present: the cheap check, primary-key lookups of the seed's last member, history row and ledger row
present() {
  [ "$(value "SELECT (SELECT COUNT(*) FROM member WHERE id = $MEMBERS) + (SELECT COUNT(*) FROM wallet WHERE id = $MEMBERS)
    + (SELECT COUNT(*) FROM wallet_transaction WHERE id = $((2 * TRANSFERS))) + (SELECT COUNT(*) FROM ledger_entry WHERE id = $((4 * TRANSFERS)))")" = 4 ]
}

# the index of wallet.member_id in $DB: unique, non-unique, or empty before the wallet migration
index_of() {
  value "SELECT IF(MIN(non_unique) = 0, 'unique', 'non-unique') FROM information_schema.statistics
    WHERE table_schema = DATABASE() AND table_name = 'wallet' AND column_name = 'member_id'" | sed 's/^NULL$//'
}

require_schema() {
  ensure_migrated "$INDEX"
  local index
  index=$(index_of)
  if [ -n "$INDEX" ] && [ "$index" != "$INDEX" ]; then
    echo "perflab: database $DB was migrated with the $index wallet.member_id index, not $INDEX; use another --db, or drop it (DROP DATABASE $DB) and seed again" >&2
    exit 1
  fi
  say "database $DB, wallet.member_id index: $index"
}

# redis_reachable: whether the wallet's Redis keys can be touched (says why not); when they can, REDIS_CLI is the
# redis-cli command on the app's Redis db (--redis-db)
redis_reachable() {
  if ! command -v redis-cli >/dev/null; then
    say "redis-cli not found: delete the wallet:* keys in Redis db $REDIS_DB yourself"
  elif ! service_up redis; then
    say "Redis is not running on $(service_address redis): no cached wallet keys to delete"
  else
    REDIS_CLI=(redis-cli -h "${PERFLAB_REDIS_HOST:-127.0.0.1}" -p "${PERFLAB_REDIS_PORT:-6379}" -n "$REDIS_DB")
    return 0
  fi
  return 1
}

clear_redis() {
  redis_reachable || return 0
  local n
  n=$("${REDIS_CLI[@]}" --scan --pattern 'wallet:*' | wc -l)
  "${REDIS_CLI[@]}" --scan --pattern 'wallet:*' | xargs -r -n 500 "${REDIS_CLI[@]}" DEL >/dev/null
  say "deleted $n wallet:* keys in Redis db $REDIS_DB"
}

# prune_redis: after a reset, delete the wallet:* keys that no longer hold, keep the rest. The seed gives member N
# the phone 010 followed by N in 8 digits and the reset puts every phone back, so an entry
# wallet:member-by-phone::010NNNNNNNN whose value is member N (N within the seed) is right again; names never change.
# One Lua script, so the check and the delete happen inside Redis.
PRUNE_LUA='
local members, cursor, kept, deleted = tonumber(ARGV[1]), "0", 0, 0
repeat
  local page = redis.call("SCAN", cursor, "MATCH", "wallet:*", "COUNT", 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local digits = string.match(key, "^wallet:member%-by%-phone::010(%d%d%d%d%d%d%d%d)$")
    local id = digits and tonumber(digits)
    local value = id and redis.call("GET", key)
    local cached = value and tonumber(string.match(value, "\"id\"%s*:%s*(%d+)"))
    if id and id >= 1 and id <= members and cached == id then
      kept = kept + 1
    else
      redis.call("DEL", key)
      deleted = deleted + 1
    end
  end
until cursor == "0"
return {kept, deleted}'

prune_redis() {
  redis_reachable || return 0
  # the PIN and login guards' counts (guess:*): a reset starts every member with no wrong guesses
  "${REDIS_CLI[@]}" --scan --pattern 'guess:*' | xargs -r -n 500 "${REDIS_CLI[@]}" DEL >/dev/null
  local out
  out=$("${REDIS_CLI[@]}" EVAL "$PRUNE_LUA" 0 "$MEMBERS" | tr '\n' ' ')
  set -- $out
  say "Redis db $REDIS_DB: kept ${1:-?} phone cache entries the reset left right, deleted ${2:-?} wallet:* keys"
}

# load_in_parts FILE "TABLE (COLUMNS)": LOAD DATA in parts of 500,000 rows, one progress line each
load_in_parts() {
  local file=$1 target=$2 parts part done=0 total
  parts=$(mktemp -d)
  total=$(wc -l <"$file")
  split -l 500000 -d "$file" "$parts/part-"
  for part in "$parts"/part-*; do
    sql -e "SET foreign_key_checks = 0; SET unique_checks = 0; LOAD DATA LOCAL INFILE '$part' INTO TABLE $target;"
    done=$((done + $(wc -l <"$part")))
    say "      $done of $total rows"
  done
  rm -rf "$parts"
}

load() {
  require_schema
  if [ ! -f "$SEED_DIR/.done-$MEMBERS-$TRANSFERS" ]; then
    say "[1/5] generating the seed files in $SEED_DIR (python3, once)"
    rm -f "$SEED_DIR"/.done-*
    python3 "$ROOT/scripts/seed/generate_wallet.py" "$SEED_DIR" "$MEMBERS" "$TRANSFERS"
    touch "$SEED_DIR/.done-$MEMBERS-$TRANSFERS"
  else
    say "[1/5] reusing the seed files in $SEED_DIR"
  fi
  say "[2/5] emptying the wallet tables"
  sql -e "SET foreign_key_checks = 0;
    TRUNCATE idempotency_key; TRUNCATE ledger_entry; TRUNCATE wallet_transaction; TRUNCATE wallet; TRUNCATE member;"
  say "[3/5] loading $MEMBERS members and wallets"
  # members carry the stub's studentId (S-<login id>), which login keys them on; the PIN hash is keyed with the
  # install's hash secret, as the app computes it (scripts/seed/pin_hash_sql.py)
  local pin_hash
  pin_hash=$(python3 "$ROOT/scripts/seed/pin_hash_sql.py" member_id 1234)
  sql -e "SET foreign_key_checks = 0; SET unique_checks = 0;
    LOAD DATA LOCAL INFILE '$SEED_DIR/member.tsv' INTO TABLE member (id, login_id, name, phone)
      SET student_id = CONCAT('S-', login_id);
    LOAD DATA LOCAL INFILE '$SEED_DIR/wallet.tsv' INTO TABLE wallet (id, member_id, balance)
      SET pin_hash = $pin_hash;"
  say "[4/5] loading $((2 * TRANSFERS)) history rows"
  load_in_parts "$SEED_DIR/history.tsv" "wallet_transaction (id, group_id, wallet_id, member_id, type, amount,
    balance_before, balance_after, counterparty_member_id, counterparty_name, status, created_at)"
  say "[5/5] loading $((4 * TRANSFERS)) ledger rows"
  load_in_parts "$SEED_DIR/ledger.tsv" "ledger_entry (id, group_id, wallet_id, ledger_code_id, debit, credit, created_at)"
  sql -e "ANALYZE TABLE member, wallet, wallet_transaction, ledger_entry" >/dev/null
  keyed_pins
  clear_redis
  say "wallet data set loaded into $DB"
}

# keyed_pins: the seed's PIN hashes are keyed with this checkout's hash secret (stack/secrets.sh). A data set loaded
# by another checkout, or before the secret changed, gets its hashes written again (the seed's PIN is 1234 for
# every wallet): one UPDATE of the seed's wallets, recorded as a fingerprint of the key in perflab_meta.
keyed_pins() {
  local expr fingerprint
  expr=$(python3 "$ROOT/scripts/seed/pin_hash_sql.py" member_id 1234)
  fingerprint=$(value "SELECT LEFT($(python3 "$ROOT/scripts/seed/pin_hash_sql.py" 0 1234 2>/dev/null || echo "''"), 16)")
  if [ "$(value "SELECT value FROM perflab_meta WHERE name = 'pin_key'")" != "$fingerprint" ]; then
    say "keying the wallets' PIN hashes with this checkout's hash secret"
    sql -e "UPDATE wallet SET pin_hash = $expr WHERE id <= $MEMBERS;
      INSERT INTO perflab_meta (name, value) VALUES ('pin_key', '$fingerprint')
      ON DUPLICATE KEY UPDATE value = '$fingerprint';"
  fi
}

ensure() {
  if database_exists && [ -z "$(pending_migrations)" ] && present; then
    if [ -n "$INDEX" ] && [ "$(index_of)" != "$INDEX" ]; then require_schema; fi
    keyed_pins
    say "wallet data set: in place in $DB"
    return 0
  fi
  say "wallet data set: not in $DB; loading it (once)"
  load
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
  prune_redis
  keyed_pins
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
  local row wallets conserved non_negative balanced
  row=$(sql -N -e "SELECT COUNT(*), COALESCE(SUM(balance) = COUNT(*) * 1000000.00, 0), COALESCE(MIN(balance) >= 0, 0),
      (SELECT COALESCE(SUM(debit), 0) = COALESCE(SUM(credit), 0) FROM ledger_entry) FROM wallet")
  read -r wallets conserved non_negative balanced <<<"$row"
  echo "wallets $wallets, money conserved $conserved, no negative balance $non_negative, ledger balanced $balanced"
  [ "$wallets" -ge "$MEMBERS" ] && [ "$conserved" = 1 ] && [ "$non_negative" = 1 ] && [ "$balanced" = 1 ]
}

status() {
  if present; then
    echo "wallet: loaded in $DB ($MEMBERS members, index $(index_of))"
  else
    echo "wallet: not loaded in $DB (./perflab seed wallet --db $DB)"
  fi
}

require_services mariadb
case $ACTION in
  ensure) ensure ;;
  load) load ;;
  reset) reset ;;
  check) require_schema >/dev/null; check ;;
  verify) require_schema >/dev/null; verify ;;
  status) status ;;
esac
