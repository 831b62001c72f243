#!/usr/bin/env bash
# The route data set of seed 001: universities 1, 2 and 3 with 50,000 routes each (a campus-like graph).
#
#   ./perflab seed route [--db NAME] [--univs 1,2,3] [--routes 50000] [ensure|load|reset|verify|check|status]
#
#   ensure (default) cheap check (each university has its routes); if not: create and migrate the database
#          when needed (the app in migrate-only mode), then load. What ./perflab up runs.
#   load   replace the universities' nodes and routes with the generated ones (python3, deterministic: fixed
#          random seeds) and bump route_version so that no cache keeps serving an older copy (about 10 s)
#   reset  nothing to do: transfers never touch routes (there for one interface across data sets)
#   verify exit 0 only when every university has its routes
#   check, status  the routes per university; one line, loaded or not
#
# --db: the database (default PERFLAB_DB_NAME, perflab). --univs and --routes (also PERFLAB_ROUTE_UNIVS and
# PERFLAB_ROUTE_ROUTES): which universities and how many routes each (a bare number is --routes).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DB= UNIVS=${PERFLAB_ROUTE_UNIVS:-1,2,3} ROUTES=${PERFLAB_ROUTE_ROUTES:-50000} ACTION=ensure
usage() { echo "usage: ./perflab seed route [--db NAME] [--univs 1,2,3] [--routes N] [ensure|load|reset|verify|check|status]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --db) DB=${2:?--db needs a name}; shift 2 ;;
    --db=*) DB=${1#--db=}; shift ;;
    --univs) UNIVS=${2:?--univs needs ids}; shift 2 ;;
    --univs=*) UNIVS=${1#--univs=}; shift ;;
    --routes) ROUTES=${2:?--routes needs a number}; shift 2 ;;
    --routes=*) ROUTES=${1#--routes=}; shift ;;
    ensure|load|reset|check|verify|status) ACTION=$1; shift ;;
    [0-9]*) ROUTES=$1; shift ;;
    *) usage ;;
  esac
done
[[ $UNIVS =~ ^[0-9]+(,[0-9]+)*$ ]] && [[ $ROUTES =~ ^[0-9]+$ ]] || usage
. "$ROOT/scripts/seed/lib.sh"
DB=${DB:-${PERFLAB_DB_NAME:-perflab}}
COUNT=$(tr ',' '\n' <<<"$UNIVS" | wc -l)

# present: the cheap check, one indexed count per university
present() {
  [ "$(value "SELECT COUNT(*) FROM (SELECT univ_id FROM route WHERE univ_id IN ($UNIVS) GROUP BY univ_id
    HAVING COUNT(*) = $ROUTES) AS complete")" = "$COUNT" ]
}

load() {
  ensure_migrated
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  say "[1/3] generating the graphs: universities $UNIVS, $ROUTES routes each (python3)"
  python3 "$ROOT/scripts/seed/generate_route.py" "$work" "$UNIVS" "$ROUTES"
  say "[2/3] deleting the universities' old nodes and routes"
  sql <<SQL
SET SESSION foreign_key_checks = 0, unique_checks = 0;
DELETE FROM route WHERE univ_id IN ($UNIVS);
DELETE FROM node WHERE univ_id IN ($UNIVS);
SQL
  say "[3/3] LOAD DATA LOCAL INFILE: $(wc -l <"$work/node.tsv") nodes, $(wc -l <"$work/route.tsv") routes"
  sql >/dev/null <<SQL
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
  say "route data set loaded into $DB"
  check
}

ensure() {
  if database_exists && [ -z "$(pending_migrations)" ] && present; then
    say "route data set: in place in $DB (universities $UNIVS, $ROUTES routes each)"
    return 0
  fi
  say "route data set: not in $DB; loading it (once)"
  load
}

check() {
  sql -N -B -e "SELECT CONCAT('university ', u.id, ' (', u.name, '): ', COUNT(r.id), ' routes, version ', u.route_version)
    FROM university u LEFT JOIN route r ON r.univ_id = u.id WHERE u.id IN ($UNIVS) GROUP BY u.id ORDER BY u.id"
}

status() {
  if present; then
    echo "route: loaded in $DB (universities $UNIVS, $ROUTES routes each)"
  else
    echo "route: not loaded in $DB (universities $UNIVS, $ROUTES routes each: ./perflab seed route --db $DB --univs $UNIVS --routes $ROUTES)"
  fi
}

require_services mariadb
case $ACTION in
  ensure) ensure ;;
  load) load ;;
  reset) echo "route data is never changed by a run: nothing to reset" ;;
  check) check ;;
  verify) present || { echo "route data in $DB: incomplete (./perflab seed route --db $DB)"; exit 1; }; status ;;
  status) status ;;
esac
