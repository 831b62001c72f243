# Shared by stack/docker/*.sh (sourced): names, paths and small helpers of perflab's Docker engine for CI.
# The engine is dockerd in a network namespace of its own with its own socket, never the default one
# (/var/run/docker.sock) nor DOCKER_HOST: a daemon there would switch ./perflab test to Testcontainers.
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DOCKER_DIR=$ROOT/stack/docker
NETNS=${PERFLAB_DOCKER_NETNS:-perflab-docker}
DATA_ROOT=${PERFLAB_DOCKER_DATA:-/var/lib/perflab-docker}      # kept between runs: the image cache
EXEC_ROOT=${PERFLAB_DOCKER_EXEC:-/run/perflab-docker-exec}
RUN_DIR=${PERFLAB_DOCKER_RUN:-/run/perflab-docker}
CACHE=${PERFLAB_DOCKER_CACHE:-/var/cache/perflab-docker}        # kept between runs: compose, rootfs, Maven repo
SOCKET=$RUN_DIR/docker.sock
PIDFILE=$RUN_DIR/dockerd.pid
LOG_FILE=$CACHE/log/dockerd.log
# Docker Compose v2, built from the Go module proxy: the last v2 (API negotiated down to dockerd 20.10's 1.41)
COMPOSE_VERSION=${PERFLAB_COMPOSE_VERSION:-v2.40.3}
# the docker CLI: the newer one where installed (it negotiates the API down), else Debian's
DOCKER_CLI=${PERFLAB_DOCKER_CLI:-$(command -v /usr/local/bin/docker || command -v docker || echo /usr/bin/docker)}
# a DOCKER_CONFIG of our own: compose as a CLI plugin there, nothing in ~/.docker
export DOCKER_CONFIG=$CACHE/docker-config

# progress lines carry the seconds since the outermost script started (children inherit its start)
export PERFLAB_DOCKER_T0=${PERFLAB_DOCKER_T0:-$(date +%s)}
say() { printf '[docker-ci %4ss] %s\n' "$(($(date +%s) - PERFLAB_DOCKER_T0))" "$*"; }
die() { printf 'perflab docker: %s\n' "$*" >&2; exit 1; }

# dk ARGS...: the docker CLI against this engine only (its socket named per call, never exported)
dk() { DOCKER_HOST=unix://$SOCKET "$DOCKER_CLI" "$@"; }
# in_ns CMD...: a command in the engine's network namespace (published ports are on its 127.0.0.1)
in_ns() { ip netns exec "$NETNS" "$@"; }

apt_ensure() { # apt_ensure PACKAGE...: apt-get install what is missing
  local missing=() pkg
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]} (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# engine_exclusive SCRIPT [ARGS...]: runs the calling script (again) holding the engine's lock, so that its users
# (compose-ci.sh, testcontainers-ci.sh), each of which brings the engine up and takes it down at its end, run one at
# a time: a second one waits for the first to end, at most PERFLAB_DOCKER_LOCK_WAIT s (1800). flock -o keeps the lock
# with flock itself, never with dockerd or a container the script starts. Call it before any trap is set.
ENGINE_LOCK=${PERFLAB_DOCKER_LOCK:-/run/perflab-docker.lock}
# The script marks that it got the lock (PERFLAB_ENGINE_HELD names a file it writes to), so that its own exit code 75
# is never taken for flock's "not within the wait".
engine_exclusive() {
  if [ -n "${PERFLAB_ENGINE_HELD:-}" ]; then
    echo "$(basename "$1") (pid $$)" >"$ENGINE_LOCK"
    echo entered >"$PERFLAB_ENGINE_HELD"
    return 0
  fi
  local wait=${PERFLAB_DOCKER_LOCK_WAIT:-1800} code=0 entered
  entered=$(mktemp)
  flock -n "$ENGINE_LOCK" true \
    || say "the engine is in use ($(cat "$ENGINE_LOCK" 2>/dev/null || echo "holder unknown")): waiting for it, at most $wait s"
  PERFLAB_ENGINE_HELD=$entered flock -o -w "$wait" -E 75 "$ENGINE_LOCK" bash "$@" || code=$?
  [ -s "$entered" ] || [ "$code" != 75 ] || code=timeout
  rm -f "$entered"
  [ "$code" != timeout ] || die "the engine stayed in use for $wait s ($(cat "$ENGINE_LOCK" 2>/dev/null)): let it end, or stop it (stack/docker/engine.sh down)"
  exit "$code"
}

# poll SECONDS WHAT CMD...: run CMD every 0.5 s until it succeeds; 1 after SECONDS
poll() {
  local limit=$1 what=$2 i; shift 2
  for ((i = 0; i < limit * 2; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  printf 'perflab docker: %s: not within %s s\n' "$what" "$limit" >&2
  return 1
}
