#!/usr/bin/env bash
# perflab's Docker engine for CI: dockerd 20.10 (Debian's docker.io) in a network namespace of its own
# ($NETNS), with its own data root (kept: the image cache), exec root, pidfile and socket ($SOCKET). Never the
# default socket, never DOCKER_HOST exported: ./perflab test would take a daemon there for Testcontainers.
# The host's network and iptables stay untouched: dockerd's bridge, NAT and port publishing live in the namespace.
# A client on the host reaches the socket directly; published ports answer on the namespace's 127.0.0.1:
#   ip netns exec perflab-docker curl http://127.0.0.1:8080/...
# The namespace has no route out: containers reach each other and nothing else.
# Usage: stack/docker/engine.sh up|down|status|env   (idempotent; `down` keeps the data root)
#   eval "$(stack/docker/engine.sh env)"   DOCKER_HOST and DOCKER_CONFIG for this shell only
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for sbin in /usr/sbin /sbin; do case ":$PATH:" in *":$sbin:"*) ;; *) PATH=$PATH:$sbin ;; esac; done
export PATH

answers() { dk version --format '{{.Server.Version}}' >/dev/null 2>&1; }
daemon_pid() { [ -s "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null && cat "$PIDFILE"; }

log_tail() {
  printf 'dockerd: the last lines of %s\n' "$LOG_FILE" >&2
  tail -n 25 "$LOG_FILE" 2>/dev/null | sed 's/^/  /' >&2 || true
}

netns_up() {
  ip netns list | grep -qw "^$NETNS" || ip netns add "$NETNS"
  ip -n "$NETNS" link set lo up
}

# install_engine: Debian's docker.io (and what the scripts use) when missing, with service starts denied while
# apt-get runs (policy-rc.d), so that the package's own dockerd never comes up on the default socket
install_engine() {
  local guard="" code=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# perflab stack/docker/engine.sh: no service starts while it installs docker.io\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d; guard=1
  fi
  (apt_ensure docker.io debootstrap iproute2 util-linux) || code=$?
  [ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d
  [ "$code" = 0 ] || die "apt-get install docker.io debootstrap failed"
  if [ -S /var/run/docker.sock ]; then
    echo "perflab docker: warning: a daemon socket exists at /var/run/docker.sock (not perflab's): ./perflab test would use it" >&2
  fi
}

up() {
  install_engine
  netns_up
  if answers; then say "engine: dockerd already answers on $SOCKET"; return 0; fi
  if pid=$(daemon_pid); then die "dockerd (pid $pid, $PIDFILE) runs but does not answer on $SOCKET: stack/docker/engine.sh down"; fi
  mkdir -p "$DATA_ROOT" "$EXEC_ROOT" "$RUN_DIR" "$(dirname "$LOG_FILE")"
  # BuildKit (compose builds with it; the legacy builder would run every stage of the Dockerfile); containers
  # ask a resolver on their own loopback, so no lookup heads for the host's nameserver
  cat >"$RUN_DIR/daemon.json" <<'JSON'
{"features": {"buildkit": true}, "dns": ["127.0.0.1"], "log-driver": "json-file",
 "log-opts": {"max-size": "10m", "max-file": "2"}}
JSON
  say "engine: starting dockerd in network namespace $NETNS (socket $SOCKET, data $DATA_ROOT)"
  # nsenter --net (not `ip netns exec`, which remounts /sys and so hides the cgroup hierarchy from dockerd)
  setsid nohup nsenter --net="/run/netns/$NETNS" dockerd --config-file "$RUN_DIR/daemon.json" \
    --host "unix://$SOCKET" --data-root "$DATA_ROOT" --exec-root "$EXEC_ROOT" --pidfile "$PIDFILE" \
    >>"$LOG_FILE" 2>&1 </dev/null &
  local launched=$! i
  for ((i = 0; i < 120; i++)); do
    answers && { say "engine: dockerd $(dk version --format '{{.Server.Version}} (API {{.Server.APIVersion}})') is up"; return 0; }
    kill -0 "$launched" 2>/dev/null || { log_tail; die "dockerd exited before it answered on $SOCKET (log: $LOG_FILE)"; }
    sleep 0.5
  done
  log_tail
  die "dockerd did not answer on $SOCKET within 60 s (log: $LOG_FILE)"
}

down() {
  local pid i
  if pid=$(daemon_pid); then
    say "engine: stopping dockerd (pid $pid) and its containers"
    kill -TERM "$pid"
    for ((i = 0; i < 120; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then log_tail; echo "dockerd (pid $pid) did not exit within 60 s: kill -9" >&2; kill -9 "$pid"; fi
  fi
  if ip netns list | grep -qw "^$NETNS"; then
    # what is left in the namespace was started by this engine (a container's process, a shim): end it by its pid
    for pid in $(ip netns pids "$NETNS"); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$NETNS"
  fi
  rm -f "$PIDFILE" "$SOCKET"
  say "engine: down (the image cache stays in $DATA_ROOT)"
}

status() {
  if answers; then
    echo "engine: up, dockerd $(dk version --format '{{.Server.Version}}') pid $(daemon_pid || echo '?') on unix://$SOCKET in netns $NETNS"
    dk ps --format '  {{.Names}}\t{{.Status}}'
  else
    echo "engine: down"; return 3
  fi
}

case ${1:-status} in
  up) up ;;
  down) down ;;
  status) status ;;
  env) printf 'export DOCKER_HOST=unix://%s DOCKER_CONFIG=%s\n' "$SOCKET" "$DOCKER_CONFIG" ;;
  *) die "usage: stack/docker/engine.sh up|down|status|env" ;;
esac
