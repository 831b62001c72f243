#!/usr/bin/env bash
# The Java tests with Testcontainers on perflab's own engine (stack/docker/engine.sh): MariaDB and Redis come from
# the stand-in images mariadb:11.4 and redis:7-alpine, started by Testcontainers (PERFLAB_TEST_SERVICES=docker,
# DOCKER_HOST to the engine's socket, Ryuk and the start-up checks off). The test JVM runs in the engine's network namespace, where the
# containers' mapped ports are; WireMock, Toxiproxy, and the MariaDB and Redis behind Toxiproxy's proxies (the
# fault tests cut them) run there too, as the native stack with a state directory of its own. Maven runs
# offline there: its plugins and the tests' dependencies must be in ~/.m2 already (a host run of ./perflab test,
# as earlier in .ci/run). The Python runner's tests are skipped (-Dperflab.python.skip=true): they install tools
# from the network, which the namespace does not reach; ./perflab test on the host runs them.
# Usage: stack/docker/testcontainers-ci.sh [maven args]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
engine_exclusive "${BASH_SOURCE[0]}" "$@"  # one engine user at a time
cd "$ROOT"
NS_STATE=${PERFLAB_DOCKER_NS_STATE:-/var/lib/perflab-docker-ns}

finish() {
  local code=$?
  trap - EXIT
  in_ns env PERFLAB_STATE="$NS_STATE" bash stack/native.sh down mariadb redis wiremock toxiproxy >/dev/null 2>&1 || true
  if [ -S "$SOCKET" ]; then  # Ryuk is off: the test JVM's containers are removed here
    local left; left=$(dk ps -aq --filter label=org.testcontainers=true 2>/dev/null || true)
    # shellcheck disable=SC2086 # container ids, one a word
    [ -z "$left" ] || dk rm -f $left >/dev/null || true
  fi
  "$DOCKER_DIR/engine.sh" down || true
  exit "$code"
}
trap finish EXIT

"$DOCKER_DIR/engine.sh" up
"$DOCKER_DIR/standins.sh" build
say "native services in the namespace (state $NS_STATE): tools installed from the host, then started inside"
PERFLAB_STATE=$NS_STATE bash stack/native.sh install >/dev/null
in_ns env PERFLAB_STATE="$NS_STATE" bash stack/native.sh up mariadb redis wiremock toxiproxy
./perflab python -c pass  # the runner's Python environment, made on the host (PyPI is out of the namespace's reach)
say "./perflab test with Testcontainers on $SOCKET, in the namespace, Maven offline"
# Testcontainers' start-up checks run a container of alpine:3.17, an image this engine has no stand-in for and no
# registry to pull from (a fresh engine failed every test class on that pull): they are off, as Ryuk is. The host
# is named too: on a machine with /.dockerenv Testcontainers believes it runs in a container and, when the bridge
# network names no gateway, runs alpine:3.17 to find one (every test class waited 2 minutes on that pull, then
# failed). The test JVM runs in the engine's namespace, where the published ports answer on localhost.
in_ns env DOCKER_HOST="unix://$SOCKET" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CHECKS_DISABLE=true \
  TESTCONTAINERS_HOST_OVERRIDE=localhost PERFLAB_TEST_SERVICES=docker \
  ./perflab test -o -Dperflab.python.skip=true "$@"
