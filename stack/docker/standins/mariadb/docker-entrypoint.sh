#!/bin/bash
# The real mariadb image's contract, for the stand-in: on an empty data directory, initialise it, start a
# server that does not listen (--skip-networking), create MARIADB_DATABASE and MARIADB_USER/MARIADB_PASSWORD,
# run /docker-entrypoint-initdb.d/*.sql|*.sql.gz|*.sh, set root's password (MARIADB_ROOT_PASSWORD, or
# MARIADB_RANDOM_ROOT_PASSWORD), stop it; then exec mariadbd as the user mysql with the command's options.
set -euo pipefail
log() { printf '%s [Note] [Entrypoint]: %s\n' "$(date '+%F %T')" "$*"; }
fail() { printf '%s [ERROR] [Entrypoint]: %s\n' "$(date '+%F %T')" "$*" >&2; exit 1; }

case ${1:-} in -*) set -- mariadbd "$@" ;; esac
if [ "${1:-}" != mariadbd ] && [ "${1:-}" != mysqld ]; then exec "$@"; fi
shift
DATADIR=/var/lib/mysql
SOCKET=/run/mysqld/mysqld.sock

if [ "$(id -u)" = 0 ]; then
  mkdir -p /run/mysqld; chown mysql:mysql "$DATADIR" /run/mysqld
fi

sql_escape() { sed -e "s/\\\\/\\\\\\\\/g" -e "s/'/\\\\'/g" <<<"$1"; }
random_password() { tr -dc 'A-Za-z0-9' </dev/urandom | head -c 32 || true; }

if [ ! -d "$DATADIR/mysql" ]; then
  : "${MARIADB_DATABASE:=${MYSQL_DATABASE:-}}" "${MARIADB_USER:=${MYSQL_USER:-}}" "${MARIADB_PASSWORD:=${MYSQL_PASSWORD:-}}"
  : "${MARIADB_ROOT_PASSWORD:=${MYSQL_ROOT_PASSWORD:-}}" "${MARIADB_RANDOM_ROOT_PASSWORD:=${MYSQL_RANDOM_ROOT_PASSWORD:-}}"
  : "${MARIADB_ALLOW_EMPTY_ROOT_PASSWORD:=${MYSQL_ALLOW_EMPTY_PASSWORD:-}}"
  if [ -z "$MARIADB_ROOT_PASSWORD" ] && [ -z "$MARIADB_RANDOM_ROOT_PASSWORD" ] && [ -z "$MARIADB_ALLOW_EMPTY_ROOT_PASSWORD" ]; then
    fail "the database is uninitialized and no root password option is given (MARIADB_ROOT_PASSWORD, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD or MARIADB_RANDOM_ROOT_PASSWORD)"
  fi
  log "initializing the database files"
  mariadb-install-db --user=mysql --datadir="$DATADIR" --auth-root-authentication-method=socket --skip-test-db \
    --skip-name-resolve "$@" >/dev/null

  log "starting a temporary server (no networking)"
  mariadbd --user=mysql --datadir="$DATADIR" --skip-networking --socket="$SOCKET" "$@" &
  temporary=$!
  client=(mariadb --protocol=socket --socket="$SOCKET" -uroot)
  for _ in $(seq 1 60); do
    "${client[@]}" -e 'SELECT 1' >/dev/null 2>&1 && break
    kill -0 "$temporary" 2>/dev/null || fail "the temporary server exited"
    sleep 0.5
  done
  "${client[@]}" -e 'SELECT 1' >/dev/null || fail "the temporary server did not answer within 30 s"

  if [ -n "$MARIADB_RANDOM_ROOT_PASSWORD" ]; then
    MARIADB_ROOT_PASSWORD=$(random_password)
    log "GENERATED ROOT PASSWORD: $MARIADB_ROOT_PASSWORD"
  fi
  healthcheck_password=$(random_password)
  {
    echo "SET @@SESSION.SQL_LOG_BIN=0;"
    echo "DROP USER IF EXISTS ''@'localhost', ''@'$(hostname)';"
    echo "CREATE USER 'healthcheck'@'127.0.0.1' IDENTIFIED BY '$healthcheck_password';"
    echo "CREATE USER 'healthcheck'@'::1' IDENTIFIED BY '$healthcheck_password';"
    echo "CREATE USER 'healthcheck'@'localhost' IDENTIFIED BY '$healthcheck_password';"
    echo "GRANT USAGE ON *.* TO 'healthcheck'@'127.0.0.1', 'healthcheck'@'::1', 'healthcheck'@'localhost';"
    if [ -n "$MARIADB_DATABASE" ]; then
      echo "CREATE DATABASE IF NOT EXISTS \`$MARIADB_DATABASE\`;"
    fi
    if [ -n "$MARIADB_USER" ]; then
      echo "CREATE USER '$(sql_escape "$MARIADB_USER")'@'%' IDENTIFIED BY '$(sql_escape "$MARIADB_PASSWORD")';"
      [ -n "$MARIADB_DATABASE" ] && echo "GRANT ALL ON \`$MARIADB_DATABASE\`.* TO '$(sql_escape "$MARIADB_USER")'@'%';"
    fi
  } | "${client[@]}"
  printf '[mariadb-client]\nport=3306\nsocket=%s\nuser=healthcheck\npassword=%s\nprotocol=tcp\n' \
    "$SOCKET" "$healthcheck_password" >"$DATADIR/.my-healthcheck.cnf"
  chown mysql:mysql "$DATADIR/.my-healthcheck.cnf"; chmod 0600 "$DATADIR/.my-healthcheck.cnf"

  database=(); [ -n "$MARIADB_DATABASE" ] && database=(--database="$MARIADB_DATABASE")
  for f in /docker-entrypoint-initdb.d/*; do
    case $f in
      *.sh) log "$0: running $f"; if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
      *.sql) log "$0: running $f"; "${client[@]}" "${database[@]}" <"$f" ;;
      *.sql.gz) log "$0: running $f"; gunzip -c "$f" | "${client[@]}" "${database[@]}" ;;
      *) [ -e "$f" ] && log "$0: ignoring $f" ;;
    esac
  done

  root=$(sql_escape "$MARIADB_ROOT_PASSWORD")
  "${client[@]}" <<SQL
SET @@SESSION.SQL_LOG_BIN=0;
ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('$root') OR unix_socket;
CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '$root';
GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
  log "stopping the temporary server"
  kill -TERM "$temporary"
  wait "$temporary" || fail "the temporary server did not stop cleanly"
  log "MariaDB init process done. Ready for start up."
fi

if [ "$(id -u)" = 0 ]; then set -- --user=mysql "$@"; fi
exec mariadbd --datadir="$DATADIR" "$@"
