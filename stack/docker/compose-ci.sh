#!/usr/bin/env bash
# CI: the committed docker-compose.yml run for real, unmodified and without override files, on perflab's own
# engine (stack/docker/engine.sh: dockerd in the network namespace perflab-docker) with stand-in images built
# here (stack/docker/standins.sh). README's Docker path with this engine as the host's Docker (DOCKER_HOST):
# `./perflab up` brings every service but grafana (no stand-in) up (`up --wait --build`, compose's own `seed` service
# loading the data sets), `./perflab ab wallet --smoke` runs the wallet's smoke in compose's runner service (docker
# compose run --build --rm runner ab wallet --smoke) and `./perflab down` stops the lab, none of them touching the
# native stack. Between them, k6's smoke and each case study's script run briefly through the `load` profile (each
# with under 1 % failed requests), and every Grafana dashboard's PromQL, the runner's run windows included, must
# return data from compose's Prometheus. Then `down -v` and the engine down, also on failure (trap).
# Expects the native stack's tools (stack/native.sh up, earlier in .ci/run). Usage: stack/docker/compose-ci.sh
# PERFLAB_DOCKER_KEEP=1 leaves the project and the engine up afterwards (to look around:
#   eval "$(stack/docker/engine.sh env)"; docker compose ps).
# What the lab costs is captured on the way (docker's JSON: `docker stats` every few seconds from `up` to the end of
# the k6 loads, the seed container's start and finish, the images, `docker system df`) into .perflab/compose-lab/ and
# printed at the end (tooling/perflab/checks/compose_resources.py). PERFLAB_COMPOSE_PUBLISH=docs/results/compose-lab
# also times a first build of the app images without cache and a next `up` after `down` (no -v), and writes
# result.json and REPORT.md there (docs/docker.md shows them).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
engine_exclusive "${BASH_SOURCE[0]}" "$@"  # one engine user at a time
cd "$ROOT"

# compose against this engine only, as a CLI plugin of our DOCKER_CONFIG (lib.sh); the project's .env as usual
dc() { dk compose --project-directory "$ROOT" "$@"; }
# on_engine CMD...: a command with this engine as the host's Docker (the default socket pointing at it, for this
# command only), as a user's ./perflab sees theirs
on_engine() { DOCKER_HOST=unix://$SOCKET "$@"; }
# native_untouched: README's Docker path started and stopped no native service: each native server's pid file names
# the process it named when this run began (CI's native stack serves the other steps meanwhile; ./perflab must
# neither start nor stop it). The servers' pids, alive or not, from stack/native.sh's state directory
native_pids() {
  local dir=${PERFLAB_STATE:-/var/lib/perflab}/run file
  for file in "$dir"/*.pid; do
    [ -f "$file" ] || continue
    if kill -0 "$(cat "$file")" 2>/dev/null; then printf '%s=%s ' "$(basename "$file" .pid)" "$(cat "$file")"; fi
  done
}
native_before=$(native_pids)
native_untouched() {
  local now
  now=$(native_pids)
  if [ "$now" != "$native_before" ]; then
    echo "compose-ci: the Docker path touched the native stack: its servers were [$native_before], now [$now]" >&2
    exit 1
  fi
  say "the native stack as the run found it: [${now:-nothing running}]"
}

PUBLISH=${PERFLAB_COMPOSE_PUBLISH:-}
CAPTURE=$ROOT/.perflab/compose-lab   # what the run cost, as docker printed it (compose_resources.py reads it)
run_started=$(date +%s)
rm -rf "$CAPTURE" && mkdir -p "$CAPTURE"

phase_name="" phase_began=$SECONDS
timings=()
phase() {
  if [ -n "$phase_name" ]; then
    timings+=("$(printf '%-28s %4s s' "$phase_name" "$((SECONDS - phase_began))")")
    printf '{"name": "%s", "seconds": %d}\n' "$phase_name" "$((SECONDS - phase_began))" >>"$CAPTURE/phases.jsonl"
  fi
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

# memory: `docker stats` of every container every few seconds, in the background until stop_sampling
sampler=""
start_sampling() {
  ( while :; do dk stats --no-stream --format '{{json .}}' >>"$CAPTURE/stats.jsonl" 2>/dev/null || true; sleep 3; done ) &
  sampler=$!
}
stop_sampling() {
  if [ -n "$sampler" ]; then kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; fi
  sampler=""
}

# inspect_seed FILE: the seed container (one-shot) as docker inspect shows it: its start and finish
# shellcheck disable=SC2046 # the container ids are words
inspect_seed() { dk inspect $(dc ps -a -q seed) >"$CAPTURE/$1" 2>/dev/null || true; }

# the project's images (docker image inspect), the engine's disk (docker system df; its bytes from the Engine API
# /system/df, which docker system df reads)
# shellcheck disable=SC2046 # the image names are words (an image not there, grafana's: left out, with an error)
capture_images() { dk image inspect $(dc --profile load config --images 2>/dev/null) >"$CAPTURE/$1" 2>/dev/null || true; }
capture_disk() {
  dk system df --format '{{json .}}' >"$CAPTURE/system-df.jsonl" || true
  curl -s --unix-socket "$SOCKET" http://localhost/system/df >"$CAPTURE/engine-df.json" || true
}

# the figures (printed), and with PERFLAB_COMPOSE_PUBLISH result.json and REPORT.md there
report_costs() {
  [ -s "$CAPTURE/stats.jsonl" ] || { say "no resource figures: the run stopped before its loads"; return 0; }
  say "what the compose lab cost:"
  ./perflab python -m perflab.checks.compose_resources --capture "$CAPTURE" --started "$run_started" \
    ${PUBLISH:+--out "$PUBLISH"} | sed 's/^/  /'
}

finish() {
  local code=$?
  trap - EXIT
  stop_sampling
  phase "down"
  if [ "${PERFLAB_DOCKER_KEEP:-}" = 1 ]; then
    say "PERFLAB_DOCKER_KEEP=1: the project and the engine stay up"
  else
    if [ -S "$SOCKET" ]; then dc --profile load down -v --remove-orphans --timeout 20 >/dev/null 2>&1 || true; fi
    "$DOCKER_DIR/engine.sh" down || true
  fi
  phase ""
  say "phases:"; printf '  %s\n' "${timings[@]}"
  if [ "$code" = 0 ]; then
    report_costs || { [ -n "$PUBLISH" ] && code=1; say "compose-ci: the resource figures failed"; }
  fi
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
capture_images images-before.json  # the image cache as the run found it

if [ -n "$PUBLISH" ]; then
  # what a machine that has the base images but never built the app pays on its first `up`
  phase "app images built, no cache"
  dc build --no-cache
fi

phase "compose up --wait --build"
# every service but grafana (no stand-in); one-shot services too (compose waits for them to complete): `seed`
# migrates the database and loads the data sets before the app starts. The app runs the `after` preset, whose knobs
# register every case study's meters, with the keep-alive client and its refresh (the one knob no preset sets, which
# a panel of the login dashboard shows), so that every dashboard query can find data.
export SPRING_PROFILES_ACTIVE=after
export PERFLAB_JVM_OPTS="-Dperflab.login.client=keep-alive -Dperflab.login.keep-alive-refresh=on"
mapfile -t services < <(dc config --services | grep -vx grafana)
say "services: ${services[*]}; SPRING_PROFILES_ACTIVE=$SPRING_PROFILES_ACTIVE PERFLAB_JVM_OPTS=$PERFLAB_JVM_OPTS"
dc down -v --remove-orphans --timeout 10 >/dev/null 2>&1 || true  # a fresh project: no state of an earlier run
start_sampling
# README's Docker path: ./perflab up with this engine as the host's Docker (DOCKER_HOST), which runs
# docker compose up -d --build --wait; PERFLAB_COMPOSE_SERVICES leaves grafana out
if ! on_engine env PERFLAB_COMPOSE_SERVICES="${services[*]}" ./perflab up; then
  diagnose "./perflab up (docker compose up --wait) failed"; exit 1
fi
native_untouched
dc ps
inspect_seed seed.json
capture_images images.json
say "what compose's seed service loaded:"
dc logs --no-color --no-log-prefix seed | grep -E '^\[data set|loaded|in place' | sed 's/^/  /'

# the runner's app containers are not the lab's: left out of its memory figures
stop_sampling
phase "the A/B runner on compose: ./perflab ab wallet --smoke (docker compose run --build --rm runner ab wallet --smoke)"
# README's Docker path again: with this engine as the host's Docker, ./perflab ab hands the run to compose's runner
# service. Its image installs the Python packages from wheels fetched here (PyPI is out of the namespace's reach); it
# starts each variant's app container through the engine's socket (DOCKER_HOST's, which it mounts)
bash "$ROOT/stack/docker/wheels.sh" stack/docker/wheels
if ! on_engine env PERFLAB_PIP_WHEELS=stack/docker/wheels ./perflab ab wallet --smoke; then
  diagnose "the runner's wallet smoke on compose failed"; exit 1
fi
native_untouched
# Grafana showed each variant's meters while it ran: compose's Prometheus scraped its three app containers (the
# runner names each in a file_sd file while it runs, tooling/perflab/lab/scrape.py), each up at least once
scraped=$(in_ns curl -s --get http://127.0.0.1:9090/api/v1/query \
  --data-urlencode 'query=count(max_over_time(up{app_instance=~"ab-.+"}[30m]) == 1)' \
  | python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)')
say "compose's Prometheus scraped ${scraped} of the runner's 3 variants while they ran"
[ "$scraped" -ge 3 ] || { diagnose "compose's Prometheus scraped $scraped of the runner's 3 variants"; exit 1; }
start_sampling

phase "k6 smoke (profile load)"
# the smoke's thresholds fail the run when 1 % or more of its requests fail (http_req_failed rate<0.01)
# (--quiet: no progress bar, the summary and the thresholds' verdicts stay)
k6() { dc --profile load run --rm k6 run --quiet "$@"; }
if ! k6 -e DURATION=20s /scripts/smoke.js; then
  diagnose "the k6 smoke failed"; exit 1
fi

phase "k6: each case study's script, briefly"
# short loads so that each case-study dashboard's mechanism has data: transfers (wallet), route reads (routes),
# logins (login), the slow dependency; each must keep its failures under 1 % as well
for script in "-e MODE=fixed -e RATE=50 -e DURATION=10s /scripts/transfer.js" "-e VUS=5 -e DURATION=10s /scripts/routes.js" \
              "-e RATE=20 -e DURATION=10s /scripts/login.js" "-e REQUESTS=20 -e CONCURRENCY=5 -e DELAY_MS=100 /scripts/lab-dependency.js"; do
  say "k6 run $script"
  # shellcheck disable=SC2086 # the options are words
  # --no-thresholds: the scripts' latency thresholds are for a lab's own runs; on two shared cores, beside a freshly
  # started app, this check is the failed requests below, never a time (a p95 of 2.5 s failed a run here once)
  summary=$(k6 --no-thresholds --summary-trend-stats "p(95)" $script 2>&1) || { echo "$summary" | tail -n 30 >&2; diagnose "k6 $script failed"; exit 1; }
  failed=$(sed -n 's/.*http_req_failed[.:]*[[:space:]]*\([0-9.]*\)%.*/\1/p' <<<"$summary" | head -n1)
  say "  failed requests: ${failed:-?} %"
  awk -v f="${failed:-100}" 'BEGIN { exit !(f < 1) }' || { echo "$summary" | tail -n 30 >&2; diagnose "k6 $script: ${failed:-?} % failed (1 % allowed)"; exit 1; }
done

stop_sampling

phase "Grafana dashboards' PromQL"
./perflab python -c pass  # the runner's Python environment, made on the host (PyPI is out of the namespace's reach)
# the runner's smoke above published its rounds' run windows to compose's Prometheus (tooling/perflab/measure/runwindow.py):
# the dashboards' run-window annotation is checked with the rest
# every expression of every dashboard must return data from compose's Prometheus (--require-all)
in_ns ./perflab python -m perflab.checks.promql_check --variant after --require-all --prometheus http://127.0.0.1:9090
capture_disk

phase "./perflab down (DOCKER_HOST at this engine: docker compose down)"
on_engine ./perflab down
if [ -n "$(dc ps -q)" ]; then
  diagnose "./perflab down left containers running"; exit 1
fi
native_untouched

if [ -n "$PUBLISH" ]; then
  # the next `up` after `down` without -v: the images are built; MariaDB's data is in an anonymous volume (its image's
  # VOLUME), which a new container does not reuse, so the seed loads the data sets again
  phase "down, volumes kept"
  dc down --timeout 20
  phase "next up --wait (volumes kept)"
  if ! dc up --detach --wait --wait-timeout 900 "${services[@]}"; then
    diagnose "the next docker compose up --wait failed"; exit 1
  fi
  inspect_seed seed-next.json
fi
