#!/bin/sh
# As the real redis image's entrypoint: options alone mean redis-server; redis-server started as root runs as
# the user redis (setpriv here, gosu there); anything else runs as it is. The real image builds redis-server with
# protected mode off by default (a container is reached through its published ports, not its loopback): here the
# same default is an option, left out when the arguments name protected-mode themselves.
set -e
case $1 in -*|*.conf) set -- redis-server "$@" ;; esac
if [ "$1" = redis-server ]; then
  case " $* " in *protected-mode*) ;; *) set -- "$@" --protected-mode no ;; esac
  if [ "$(id -u)" = 0 ]; then
    find . \! -user redis -exec chown redis '{}' + 2>/dev/null || true
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
