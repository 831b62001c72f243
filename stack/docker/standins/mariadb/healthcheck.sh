#!/bin/bash
# The real mariadb image's healthcheck.sh, the options compose uses: --connect (a connection over TCP, which the
# entrypoint's temporary server does not accept) and --innodb_initialized (InnoDB is there and initialised),
# as the user healthcheck the entrypoint created (/var/lib/mysql/.my-healthcheck.cnf).
set -eo pipefail
client=(mariadb --defaults-extra-file=/var/lib/mysql/.my-healthcheck.cnf --host=127.0.0.1 --protocol=tcp -N -B)
[ $# -gt 0 ] || set -- --connect
for check in "$@"; do
  case $check in
    --connect) "${client[@]}" -e 'SELECT 1' >/dev/null ;;
    --innodb_initialized)
      [ "$("${client[@]}" -e "SELECT 1 FROM information_schema.ENGINES WHERE engine = 'InnoDB' AND support IN ('YES', 'DEFAULT', 'ENABLED')")" = 1 ] ;;
    --su-mysql|--no-defaults|--defaults-file=*|--defaults-extra-file=*) ;;
    *) echo "healthcheck.sh: the stand-in knows --connect and --innodb_initialized, not $check" >&2; exit 2 ;;
  esac
done
