# Shared by scripts/seed-*.sh (./perflab seed ...): the MariaDB client, progress lines, Flyway state and the
# migrate-only run of the app. The caller sets ROOT and DB.
. "$ROOT/scripts/services.sh"
load_env "$ROOT"
STARTED=$(date +%s%N)

say() { printf '[%6.1fs] %s\n' "$(( ($(date +%s%N) - STARTED) / 1000000 ))e-3" "$*"; }

mariadb_client() {
  mariadb --local-infile=1 -h"${PERFLAB_DB_HOST:-127.0.0.1}" -P"${PERFLAB_DB_PORT:-3306}" \
    -u"${PERFLAB_DB_USER:-perflab}" -p"${PERFLAB_DB_PASSWORD:-perflab}" "$@"
}
sql() { mariadb_client "$DB" "$@"; }
# value QUERY: one value from $DB, or an empty line when the query fails (no database, no table)
value() { sql -N -B -e "$1" 2>/dev/null || echo; }

database_exists() {
  [ "$(mariadb_client -N -B -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$DB'")" = 1 ]
}

# pending_migrations: the versions in db/migrations that Flyway has not applied to $DB (V3_1__x.sql is 3.1)
pending_migrations() {
  local applied file version
  applied=" $(value "SELECT GROUP_CONCAT(version SEPARATOR ' ') FROM flyway_schema_history WHERE success = 1") "
  for file in "$ROOT"/db/migrations/V*__*.sql; do
    version=$(basename "$file"); version=${version#V}; version=${version%%__*}; version=${version//_/.}
    [[ $applied == *" $version "* ]] || printf '%s ' "$version"
  done
}

# ensure_migrated [INDEX]: migrate $DB when it misses a migration (the app in migrate-only mode: ./perflab migrate).
# INDEX (unique | non-unique) is the wallet's index for a new database; empty = the active profile's.
ensure_migrated() {
  local pending
  database_exists && pending=$(pending_migrations) || pending=all
  [ -z "$pending" ] && return 0
  say "database $DB: migrations pending ($pending); migrating"
  "$ROOT/perflab" migrate --db "$DB" ${1:+--index "$1"}
}
