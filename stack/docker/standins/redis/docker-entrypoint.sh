#!/bin/sh
# As the real redis image's entrypoint: options alone mean redis-server; redis-server started as root runs as
# the user redis (setpriv here, gosu there); anything else runs as it is.
set -e
case $1 in -*|*.conf) set -- redis-server "$@" ;; esac
if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then
  find . \! -user redis -exec chown redis '{}' + 2>/dev/null || true
  exec setpriv --reuid=redis --regid=redis --init-groups "$@"
fi
exec "$@"
