#!/usr/bin/env bash
# CI: the committed docker-compose.yml run for real, unmodified and without override files, on perflab's own
# engine (stack/docker/engine.sh: dockerd in the network namespace perflab-docker) with stand-in images built
# here (stack/docker/standins.sh). Every service but grafana (no stand-in) comes up with `up --wait --build`,
# the data set the smoke logs in with is loaded as `./perflab up` does with Docker, k6's smoke runs through the
# `load` profile (its thresholds: failed requests under 1 %), and the Grafana dashboards' PromQL is checked
# against compose's Prometheus. Then `down -v` and the engine down, also on failure (trap).
# Expects the native stack's tools (stack/native.sh up, earlier in .ci/run). Usage: stack/docker/compose-ci.sh
# PERFLAB_DOCKER_KEEP=1 leaves the project and the engine up afterwards (to look around:
#   eval "$(stack/docker/engine.sh env)"; docker compose ps).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# compose against this engine only, as a CLI plugin of our DOCKER_CONFIG (lib.sh); the project's .env as usual
dc() { dk compose --project-directory "$ROOT" "$@"; }

phase_name="" phase_began=$SECONDS
timings=()
phase() {
  [ -n "$phase_name" ] && timings+=("$(printf '%-28s %4s s' "$phase_name" "$((SECONDS - phase_began))")")
  phase_name=$1 phase_began=$SECONDS
  [ -n "$phase_name" ] && say "== $phase_name"
  return 0
}

# diagnose WHAT: compose's view of the project and the last log lines of every service not running as it should
diagnose() {
  echo "compose-ci: $1; docker compose ps -a:" >&2
  dc ps -a >&2 || true
  local service state health code
  while IFS='|' read -r service state health code; do
    case $state/$health/$code in
      running/healthy/*|running//*|exited/*/0) continue ;;
    esac
    echo "compose-ci: service $service is $state${health:+ ($health)}${code:+, exit code $code}; its last log lines:" >&2
    dc logs --no-color --tail 40 "$service" 2>&1 | sed 's/^/  /' >&2 || true
  done < <(dc ps -a --format '{{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}' 2>/dev/null)
}

finish() {
  local code=$?
  trap - EXIT
  phase "down"
  if [ "${PERFLAB_DOCKER_KEEP:-}" = 1 ]; then
    say "PERFLAB_DOCKER_KEEP=1: the project and the engine stay up"
  else
    if [ -S "$SOCKET" ]; then dc --profile load down -v --remove-orphans --timeout 20 >/dev/null 2>&1 || true; fi
    "$DOCKER_DIR/engine.sh" down || true
  fi
  phase ""
  say "phases:"; printf '  %s\n' "${timings[@]}"
  if [ "$code" = 0 ]; then say "compose-ci: passed"; else say "compose-ci: FAILED (exit code $code)"; fi
  exit "$code"
}
trap finish EXIT

phase "engine"
"$DOCKER_DIR/engine.sh" up
phase "compose plugin"
"$DOCKER_DIR/compose-plugin.sh" >/dev/null
dc version
phase "stand-in images"
"$DOCKER_DIR/standins.sh" build

phase "compose up --wait --build"
# every service but grafana (no stand-in); one-shot services too (compose waits for them to complete)
mapfile -t services < <(dc config --services | grep -vx grafana)
say "services: ${services[*]}"
dc down -v --remove-orphans --timeout 10 >/dev/null 2>&1 || true  # a fresh project: no state of an earlier run
if ! dc up --detach --build --wait --wait-timeout 600 "${services[@]}"; then
  diagnose "docker compose up --wait failed"; exit 1
fi
dc ps

phase "data set (as ./perflab up)"
./perflab python -c pass  # the runner's Python environment, made on the host (PyPI is out of the namespace's reach)
# as ./perflab up does with Docker: the wallet data set from the host, with the app's hash secret and Redis'
# password from the volume perflab-secrets, through the ports compose published on the namespace's loopback
secret() { dc run --rm -T secrets cat "/secrets/app/$1"; }
hash_secret=$(secret perflab.security.hash.secret) redis_password=$(secret spring.data.redis.password)
in_ns env PERFLAB_SECURITY_HASH_SECRET="$hash_secret" REDISCLI_AUTH="$redis_password" \
  ./perflab seed wallet --db "${PERFLAB_DB_NAME:-perflab}" ensure

phase "k6 smoke (profile load)"
# the smoke's thresholds fail the run when 1 % or more of its requests fail (http_req_failed rate<0.01)
# (--quiet: no progress bar, the summary and the thresholds' verdicts stay)
if ! dc --profile load run --rm k6 run --quiet -e DURATION=20s /scripts/smoke.js; then
  diagnose "the k6 smoke failed"; exit 1
fi

phase "Grafana dashboards' PromQL"
in_ns ./perflab python ab/promql_check.py --variant default --prometheus http://127.0.0.1:9090
