#!/usr/bin/env bash
# ./perflab seed route [ROUTES]: 3 universities (ids 1, 2, 3) x ROUTES routes (default 50,000, seed 001) into
# MariaDB database $PERFLAB_DB_NAME (default perflab). Deterministic (fixed random seeds) and idempotent: the
# universities' nodes and routes are replaced by the same rows, and route_version is bumped so that no cache
# keeps serving an older copy. Needs bash, the mariadb client and python3 (stdlib only).
# The tables come from Flyway (V4__route.sql), which the app runs at startup: start it once against the database.
set -euo pipefail

ROOT=${PERFLAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
DB=${PERFLAB_DB_NAME:-perflab}
ROUTES=${1:-${PERFLAB_ROUTE_ROUTES:-50000}}
UNIVS=${PERFLAB_ROUTE_UNIVS:-1,2,3}
SQL=(mariadb -h"${PERFLAB_DB_HOST:-127.0.0.1}" -P"${PERFLAB_DB_PORT:-3306}" -u"${PERFLAB_DB_USER:-perflab}"
     -p"${PERFLAB_DB_PASSWORD:-perflab}" --local-infile=1 -N -B)
now() { date +%s%N; }
ms() { echo $(( ($(now) - $1) / 1000000 )); }

echo "seed route: database $DB, universities $UNIVS, $ROUTES routes each"
migrated=$("${SQL[@]}" -e "SELECT COUNT(*) FROM flyway_schema_history WHERE version = '4' AND success = 1" "$DB" 2>/dev/null || echo 0)
if [ "$migrated" != 1 ]; then
  cat >&2 <<MSG
seed route: database '$DB' has no route schema yet (Flyway V4 not applied).
The app applies the migrations when it starts; start it once against this database, then seed again:
  mariadb -h127.0.0.1 -uperflab -pperflab -e 'create database if not exists $DB'
  PERFLAB_DB_NAME=$DB ./perflab app start      # or: ./perflab up
MSG
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t=$(now)
echo "[1/3] generating the graphs (python3)"
python3 "$ROOT/scripts/route/generate.py" "$work" "$UNIVS" "$ROUTES"
echo "      done in $(ms "$t") ms"

t=$(now)
echo "[2/3] replacing the universities' nodes and routes"
"${SQL[@]}" "$DB" <<SQL
SET SESSION foreign_key_checks = 0, unique_checks = 0;
DELETE FROM route WHERE univ_id IN ($UNIVS);
DELETE FROM node WHERE univ_id IN ($UNIVS);
SQL
echo "      done in $(ms "$t") ms"

t=$(now)
echo "[3/3] LOAD DATA LOCAL INFILE: $(wc -l <"$work/node.tsv") nodes, $(wc -l <"$work/route.tsv") routes"
"${SQL[@]}" "$DB" >/dev/null <<SQL
SET SESSION foreign_key_checks = 0, unique_checks = 0;
CREATE TEMPORARY TABLE seed_university (id BIGINT PRIMARY KEY, name VARCHAR(100));
LOAD DATA LOCAL INFILE '$work/university.tsv' INTO TABLE seed_university FIELDS TERMINATED BY '\t' (id, name);
INSERT INTO university (id, name, route_version) SELECT id, name, 1 FROM seed_university
  ON DUPLICATE KEY UPDATE name = VALUES(name), route_version = route_version + 1;
LOAD DATA LOCAL INFILE '$work/node.tsv' INTO TABLE node FIELDS TERMINATED BY '\t' (id, univ_id, lat, lng);
LOAD DATA LOCAL INFILE '$work/route.tsv' INTO TABLE route FIELDS TERMINATED BY '\t'
  (id, univ_id, node1_id, node2_id, distance, caution_factors, danger_factors);
ANALYZE TABLE university, node, route;
SQL
echo "      done in $(ms "$t") ms"
"${SQL[@]}" "$DB" -e "SELECT CONCAT('      university ', u.id, ' (', u.name, '): ', COUNT(r.id), ' routes, version ', u.route_version)
  FROM university u LEFT JOIN route r ON r.univ_id = u.id WHERE u.id IN ($UNIVS) GROUP BY u.id ORDER BY u.id"
